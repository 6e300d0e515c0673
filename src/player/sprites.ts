// GPU helpers of the scene: camera-facing sprites (pulses and glows) in one mesh, and a 2D canvas
// uploaded as the wall's texture.

import { Geometry, Mesh, type Program, type Renderer, type Transform } from "ogl";
import type { RGB } from "./colors";
import type { V3 } from "./fit";

export interface SpriteStyle {
  core: boolean; // pulses have a white-hot core; glows are soft
  aspect: [number, number];
}

export class Sprites {
  readonly mesh: Mesh;
  private readonly center: Float32Array;
  private readonly colour: Float32Array;
  private readonly size: Float32Array;
  private readonly geometry: Geometry;
  count = 0;

  constructor(gl: Renderer["gl"], parent: Transform, capacity: number, program: Program, style: SpriteStyle) {
    this.center = new Float32Array(capacity * 4 * 3);
    this.colour = new Float32Array(capacity * 4 * 4);
    this.size = new Float32Array(capacity * 4);
    const corner = new Float32Array(capacity * 4 * 2);
    const index = new Uint16Array(capacity * 6);
    for (let i = 0; i < capacity; i++) {
      corner.set([-1, -1, 1, -1, 1, 1, -1, 1], i * 8);
      index.set([i * 4, i * 4 + 1, i * 4 + 2, i * 4, i * 4 + 2, i * 4 + 3], i * 6);
    }
    this.geometry = new Geometry(gl, {
      center: { size: 3, data: this.center },
      corner: { size: 2, data: corner },
      colour: { size: 4, data: this.colour },
      size: { size: 1, data: this.size },
      index: { data: index },
    });
    this.mesh = new Mesh(gl, { geometry: this.geometry, program, renderOrder: style.core ? 10 : -10 });
    this.mesh.frustumCulled = false;
    this.mesh.onBeforeRender(() => {
      program.uniforms["uCore"].value = style.core ? 1 : 0;
      program.uniforms["uAspect"].value = style.aspect;
    });
    this.mesh.setParent(parent);
  }

  set(items: { at: V3; colour: RGB; intensity: number; size: number }[]): void {
    const n = Math.min(items.length, this.size.length / 4);
    for (let i = 0; i < n; i++) {
      const item = items[i]!;
      for (let c = 0; c < 4; c++) {
        this.center.set(item.at, (i * 4 + c) * 3);
        this.colour.set([...item.colour, item.intensity], (i * 4 + c) * 4);
        this.size[i * 4 + c] = item.size;
      }
    }
    this.count = n;
    for (const name of ["center", "colour", "size"]) {
      const attribute = this.geometry.attributes[name];
      if (attribute) attribute.needsUpdate = true;
    }
    this.geometry.setDrawRange(0, n * 6);
    this.mesh.visible = n > 0;
  }

  dispose(): void {
    this.mesh.setParent(null);
    this.geometry.remove();
  }
}

/**
 * A 2D canvas as a texture, in the shape OGL's Program binds (`texture` and `update(unit)`): all the
 * wall needs, without OGL's general Texture (mipmaps, cube maps, compressed formats).
 */
export class CanvasTexture {
  readonly texture: WebGLTexture | null;
  private source: HTMLCanvasElement | null = null;

  constructor(private readonly gl: Renderer["gl"]) {
    this.texture = gl.createTexture();
  }

  set(canvas: HTMLCanvasElement): void {
    this.source = canvas;
  }

  update(unit: number): void {
    const gl = this.gl;
    gl.renderer.activeTexture(unit);
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.renderer.state.textureUnits[unit] = -1; // OGL's cache: this unit holds none of its textures
    if (!this.source) return;
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true); // the shader outputs premultiplied colour
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, this.source);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    for (const [name, value] of [
      [gl.TEXTURE_MIN_FILTER, gl.LINEAR],
      [gl.TEXTURE_MAG_FILTER, gl.LINEAR],
      [gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE],
      [gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE],
    ] as const)
      gl.texParameteri(gl.TEXTURE_2D, name, value);
    this.source = null;
  }
}
