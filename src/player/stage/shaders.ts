// GLSL for the scene, in tagged template strings (editors highlight `glsl` literals). Notes on the
// uniforms sit in the doc comment above each shader, not in the GLSL: they would ship in the bundle.
// WebGL 1 syntax, so the same shaders run on WebGL 1 and 2 contexts. Colours are premultiplied.

import { SPLIT } from "./curves";
import { BATCH_EDGES } from "./edges";

const EDGE_RADIUS = "0.028"; // scene units: an edge nothing has crossed yet
const HEAD_RADIUS = "0.085";

export const glsl = (strings: TemplateStringsArray, ...values: (string | number)[]): string =>
  strings.reduce((out, s, i) => out + s + (i < values.length ? String(values[i]) : ""), "");

/**
 * Edges: a shaded tube plus an arrowhead at each end (curves.ts, ROLE), many edges per draw (edges.ts).
 * The part the pulse has passed is lit and, during backward, as thick as the contribution is large
 * (encoding.ts); the arrowhead the pulse travels towards opens. Dead paths are dashed; negative
 * contributions are hollow, a pale core along the tube: a second cue besides colour. The lift raises
 * the middle of the edge towards uEye (the backward layer, curves.ts liftedPoint); the ends stay on
 * their cards.
 *   edge    which entry of uEdges styles this vertex; span: the edge's length in scene units
 *   uEdges  per edge: lit so far (0..1), lit from the arrow's end (1), the lit part's radius relative
 *           to an unlit edge, the tone (edges.ts TONE; 3: a ghost, the flat copy under the lift)
 *   uPass   the arrowhead shown at the parent's end (x) and the child's end (y), the lift in scene
 *           units, and 1 in w when drawing the ghosts
 *   uEye    the lift goes along the line of sight from this point (the default view's camera)
 */
export const edgeVertex = glsl`
attribute vec3 position;
attribute vec3 offset;
attribute float role;
attribute float along;
attribute float edge;
attribute float span;
uniform mat4 modelViewMatrix;
uniform mat4 projectionMatrix;
uniform mat3 normalMatrix;
uniform vec4 uEdges[${BATCH_EDGES}];
uniform vec4 uPass;
uniform vec3 uEye;
varying vec3 vNormal;
varying float vAlong;
varying float vHead;
varying vec4 vStyle;
varying float vSpan;
void main() {
  vec4 s = uPass.w > 0.5 ? vec4(1.0, 0.0, 0.7, 3.0) : uEdges[int(edge + 0.5)];
  float a = s.y > 0.5 ? 1.0 - along : along;
  float lit = s.x > 0.0 ? step(a, s.x + 0.001) : 0.0;
  float r = ${EDGE_RADIUS} * mix(1.0, s.z, lit);
  float head = max(${HEAD_RADIUS}, r * 1.9);
  float radius = r;
  if (role > 5.5) radius = r * (1.0 - uPass.y);
  else if (role > 4.5) radius = 0.0;
  else if (role > 3.5) radius = r * (1.0 - uPass.y) * 0.98;
  else if (role > 2.5) radius = mix(r * 0.98, head, uPass.y);
  else if (role > 1.5) radius = r * (1.0 - uPass.x);
  else if (role > 0.5) radius = mix(r, head, uPass.x);
  vec3 p = position + offset * radius;
  p += normalize(uEye - position) * uPass.z * sin(3.14159265 * clamp(along / ${SPLIT}, 0.0, 1.0));
  vHead = role > 0.5 && role < 5.5 ? 1.0 : 0.0;
  vNormal = normalize(normalMatrix * (length(offset) > 0.0 ? offset : vec3(0.0, 0.0, 1.0)));
  vAlong = along;
  vStyle = s;
  vSpan = span;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(p, 1.0);
}`;

/** Colours: uBase (not reached yet), and the lit part by tone: uLit, uNegative, uDead, uGhost. */
export const edgeFragment = glsl`
precision highp float;
uniform vec3 uBase;
uniform vec3 uLit;
uniform vec3 uNegative;
uniform vec3 uDead;
uniform vec3 uGhost;
uniform vec3 uBg;
varying vec3 vNormal;
varying float vAlong;
varying float vHead;
varying vec4 vStyle;
varying float vSpan;
void main() {
  float tone = vStyle.w;
  float a = vStyle.y > 0.5 ? 1.0 - vAlong : vAlong;
  float lit = vStyle.x > 0.0 ? step(a, vStyle.x + 0.001) : 0.0;
  bool body = lit > 0.5 && vHead < 0.5;
  if (body && tone > 1.5 && tone < 2.5 && fract(vAlong * vSpan / 0.16) > 0.5) discard;
  vec3 tint = tone < 0.5 ? uLit : tone < 1.5 ? uNegative : tone < 2.5 ? uDead : uGhost;
  vec3 colour = mix(tone > 2.5 ? uGhost : uBase, tint, lit);
  vec3 n = normalize(vNormal);
  if (body && tone > 0.5 && tone < 1.5 && length(n.xy) < 0.5) colour = mix(colour, uBg, 0.7);
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
 *   uGrid       the grid's colour
 *   uGridAlpha  its lines' opacity at the wall's centre (they fade towards its rim)
 *   uCell       grid spacing, scene units
 *   uDensity    drawing-buffer px per scene unit (a line is about a px wide at any zoom)
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
