// GLSL for the scene, in tagged template strings (editors highlight `glsl` literals). Notes on the
// uniforms sit in the doc comment above each shader, not in the GLSL: they would ship in the bundle.
// WebGL 1 syntax, so the same shaders run on WebGL 1 and 2 contexts. Colours are premultiplied.

import { SPLIT } from "./curves";

const EDGE_RADIUS = "0.028"; // scene units: an edge nothing has crossed yet
const HEAD_RADIUS = "0.085";

export const glsl = (strings: TemplateStringsArray, ...values: (string | number)[]): string =>
  strings.reduce((out, s, i) => out + s + (i < values.length ? String(values[i]) : ""), "");

/**
 * Edges: a shaded tube plus an arrowhead at each end (curves.ts, ROLE). The part the pulse has
 * passed is lit in uLit and, during backward, as thick as the contribution is large (encoding.ts);
 * uHeads opens the arrowhead the pulse travels towards. Dead paths (uDash) are dashed; negative
 * contributions (uBands) are hollow, a pale core along the tube: a second cue besides colour.
 * uLift raises the middle of the edge towards uEye (the backward layer, curves.ts liftedPoint), the
 * ends stay on their cards.
 *
 *   uWidth  radius of the lit part, relative to an unlit edge
 *   uHeads  1: the arrowhead at the parent's end (x) / the child's end (y) is shown
 *   uLift   scene units the middle of the edge stands out towards the viewer
 *   uEye    ... along the line of sight from this point (the default view's camera)
 */
export const edgeVertex = glsl`
attribute vec3 position;
attribute vec3 offset;
attribute float role;
attribute float along;
uniform mat4 modelViewMatrix;
uniform mat4 projectionMatrix;
uniform mat3 normalMatrix;
uniform float uFill;
uniform float uReversed;
uniform float uWidth;
uniform vec2 uHeads;
uniform float uLift;
uniform vec3 uEye;
varying vec3 vNormal;
varying float vAlong;
varying float vHead;
void main() {
  float a = uReversed > 0.5 ? 1.0 - along : along;
  float lit = uFill > 0.0 ? step(a, uFill + 0.001) : 0.0;
  float r = ${EDGE_RADIUS} * mix(1.0, uWidth, lit);
  float head = max(${HEAD_RADIUS}, r * 1.9);
  float radius = r;
  if (role > 5.5) radius = r * (1.0 - uHeads.y);
  else if (role > 4.5) radius = 0.0;
  else if (role > 3.5) radius = r * (1.0 - uHeads.y) * 0.98;
  else if (role > 2.5) radius = mix(r * 0.98, head, uHeads.y);
  else if (role > 1.5) radius = r * (1.0 - uHeads.x);
  else if (role > 0.5) radius = mix(r, head, uHeads.x);
  vec3 p = position + offset * radius;
  p += normalize(uEye - position) * uLift * sin(3.14159265 * clamp(along / ${SPLIT}, 0.0, 1.0));
  vHead = role > 0.5 && role < 5.5 ? 1.0 : 0.0;
  vNormal = normalize(normalMatrix * (length(offset) > 0.0 ? offset : vec3(0.0, 0.0, 1.0)));
  vAlong = along;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(p, 1.0);
}`;

/**
 *   uFill      0..1 of the edge lit so far
 *   uReversed  1: lit from the arrow's end (backward)
 *   uDash      1: a dead path, dashed
 *   uBands     1: a negative contribution, drawn hollow (a pale core along the tube)
 *   uLength    the edge's length in scene units
 */
export const edgeFragment = glsl`
precision highp float;
uniform vec3 uBase;
uniform vec3 uLit;
uniform vec3 uBg;
uniform float uFill;
uniform float uReversed;
uniform float uDash;
uniform float uBands;
uniform float uLength;
varying vec3 vNormal;
varying float vAlong;
varying float vHead;
void main() {
  float a = uReversed > 0.5 ? 1.0 - vAlong : vAlong;
  float lit = uFill > 0.0 ? step(a, uFill + 0.001) : 0.0;
  float units = vAlong * uLength;
  if (uDash > 0.5 && lit > 0.5 && vHead < 0.5 && fract(units / 0.16) > 0.5) discard;
  vec3 colour = mix(uBase, uLit, lit);
  vec3 n = normalize(vNormal);
  if (uBands > 0.5 && lit > 0.5 && vHead < 0.5 && length(n.xy) < 0.5) colour = mix(colour, uBg, 0.7);
  float diffuse = max(dot(n, normalize(vec3(-0.35, 0.55, 0.75))), 0.0);
  float rim = pow(1.0 - abs(n.z), 2.0) * 0.15;
  vec3 shaded = colour * (0.62 + 0.38 * diffuse) + rim;
  gl_FragColor = vec4(shaded, 1.0);
}`;

/**
 * Camera-facing quads: pulses (bright dots with a halo) and the glow behind nodes.
 *
 *   corner   -1..1
 *   colour   rgb + intensity
 *   size     half-width, scene units
 *   uAspect  stretch for rounded-rectangle glows (x, y)
 */
export const spriteVertex = glsl`
attribute vec3 center;
attribute vec2 corner;
attribute vec4 colour;
attribute float size;
uniform mat4 modelViewMatrix;
uniform mat4 projectionMatrix;
uniform vec2 uAspect;
varying vec2 vCorner;
varying vec4 vColour;
void main() {
  vCorner = corner;
  vColour = colour;
  vec4 view = modelViewMatrix * vec4(center, 1.0);
  view.xy += corner * size * uAspect;
  gl_Position = projectionMatrix * view;
}`;

/**
 *   uCore  1: a pulse with a white-hot core; 0: a soft glow
 */
export const spriteFragment = glsl`
precision highp float;
uniform float uCore;
varying vec2 vCorner;
varying vec4 vColour;
void main() {
  float d = length(vCorner);
  if (d > 1.0) discard;
  float halo = pow(1.0 - d, 1.6);
  float core = smoothstep(0.42, 0.18, d) * uCore;
  vec3 colour = mix(vColour.rgb, vec3(1.0), core * 0.75);
  float alpha = clamp((halo * (1.0 - uCore * 0.3) + core) * vColour.a, 0.0, 1.0);
  gl_FragColor = vec4(colour * alpha, alpha);
}`;

/**
 * The back wall, behind the graph: a grid computed here, about a pixel wide at any zoom, fading out
 * towards the wall's border, under the soft shadows of the cards and edges (tMap, backdrop.ts).
 */
export const wallVertex = glsl`
attribute vec3 position;
attribute vec2 uv;
uniform mat4 modelViewMatrix;
uniform mat4 projectionMatrix;
varying vec2 vUv;
varying vec2 vPos;
void main() {
  vUv = uv;
  vPos = position.xy;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
}`;

/**
 *   tMap      the shadows, premultiplied
 *   uGrid     the grid's colour
 *   uCell     grid spacing, scene units
 *   uDensity  drawing-buffer px per scene unit
 *   uDensity  px to the nearest lines
 */
export const wallFragment = glsl`
precision highp float;
uniform sampler2D tMap;
uniform vec3 uGrid;
uniform float uGridAlpha;
uniform float uCell;
uniform float uDensity;
varying vec2 vUv;
varying vec2 vPos;
void main() {
  vec2 off = abs(fract(vPos / uCell + 0.5) - 0.5) * uCell * uDensity;
  float line = 1.0 - smoothstep(0.2, 1.0, min(off.x, off.y));
  float r = length((vUv - 0.5) * 2.0);
  float fade = r < 0.55 ? mix(1.0, 0.8, r / 0.55) : mix(0.8, 0.0, clamp((r - 0.55) / 0.37, 0.0, 1.0));
  float a = uGridAlpha * line * fade;
  vec4 shadow = texture2D(tMap, vUv);
  gl_FragColor = shadow + vec4(uGrid * a, a) * (1.0 - shadow.a);
}`;
