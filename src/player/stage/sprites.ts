// Camera-facing sprites of the scene (pulses and glows), all of one kind in one mesh.

import { type GL, Geometry, type Mesh, type Program } from "./gl";
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

  constructor(gl: GL, capacity: number, program: Program, style: SpriteStyle) {
    this.center = new Float32Array(capacity * 4 * 3);
    this.colour = new Float32Array(capacity * 4 * 4);
    this.size = new Float32Array(capacity * 4);
    const corner = new Float32Array(capacity * 4 * 2);
    const index = new Uint16Array(capacity * 6);
    for (let i = 0; i < capacity; i++) {
      corner.set([-1, -1, 1, -1, 1, 1, -1, 1], i * 8);
      index.set([i * 4, i * 4 + 1, i * 4 + 2, i * 4, i * 4 + 2, i * 4 + 3], i * 6);
    }
    this.geometry = new Geometry(
      gl,
      {
        center: { size: 3, data: this.center },
        corner: { size: 2, data: corner },
        colour: { size: 4, data: this.colour },
        size: { size: 1, data: this.size },
      },
      index,
      true,
    );
    this.mesh = {
      geometry: this.geometry,
      program,
      order: style.core ? 10 : -10,
      visible: false,
      before: () => {
        program.uniforms.uCore = style.core ? 1 : 0;
        program.uniforms.uAspect = style.aspect;
      },
    };
  }

  set(items: { at: V3; colour: RGB; intensity: number; size: number }[]): void {
    const n = Math.min(items.length, this.size.length / 4);
    let changed = n !== this.count;
    const write = (array: Float32Array, at: number, value: number): void => {
      // Float32 rounding: compare what the array would hold, so an unchanged frame uploads nothing.
      if (array[at] !== Math.fround(value)) {
        array[at] = value;
        changed = true;
      }
    };
    for (let i = 0; i < n; i++) {
      const { at, colour, intensity, size } = items[i]!;
      for (let c = 0; c < 4; c++) {
        const v = i * 4 + c;
        for (let k = 0; k < 3; k++) {
          write(this.center, v * 3 + k, at[k]!);
          write(this.colour, v * 4 + k, colour[k]!);
        }
        write(this.colour, v * 4 + 3, intensity);
        write(this.size, v, size);
      }
    }
    this.count = n;
    // A paused frame (a slider drag at the end of backward) glows where it did: nothing to send.
    if (n > 0 && changed) for (const name of ["center", "colour", "size"]) this.geometry.update(name);
    this.geometry.setCount(n * 6);
    this.mesh.visible = n > 0;
  }

  dispose(): void {
    this.geometry.dispose();
  }
}
