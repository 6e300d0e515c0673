// The graph's edges as a few merged draws. Every edge of a batch shares one set of vertex buffers
// (curves.ts edgeMesh, concatenated) and keeps its style (how far it is lit, from which end, how
// thick, its sign) in one vec4 of the batch's uEdges uniform array (shaders.ts): a frame of a
// 40-node graph is one draw and one uniform call, not one of each per edge (the slider-to-frame budget of make bench).

import { type EdgeCurve, edgeLength, edgeMesh } from "./curves";
import { type GL, Geometry, type Mesh, type Program } from "./gl";

export const BATCH_EDGES = 64; // uEdges' length: WebGL guarantees 128 vec4 uniforms to a vertex shader
const BATCH_VERTICES = 65536; // 16-bit indices

/** What colours an edge's lit part (the fragment shader's choice, shaders.ts). */
export const TONE = { lit: 0, negative: 1, dead: 2 } as const;
export type Tone = (typeof TONE)[keyof typeof TONE];

interface Batch {
  geometry: Geometry;
  styles: Float32Array; // uEdges: per edge fill, reversed, width, tone
  mesh: Mesh;
  ghost: Mesh; // the same edges again, faint and flat, under the lifted backward layer
}

export class EdgeBatches {
  readonly meshes: Mesh[] = []; // ghosts first (drawn under), then the edges
  private readonly batches: Batch[] = [];
  private readonly slots: { styles: Float32Array; at: number }[] = []; // by edge, in the curves' order
  private readonly pass = new Float32Array(4); // uPass: the arrowheads shown (x, y), the lift, 0
  private readonly ghostPass = new Float32Array([1, 0, 0, 1]); // forward heads, flat, ghost

  constructor(gl: GL, program: Program, curves: readonly EdgeCurve[]) {
    let start = 0;
    while (start < curves.length) {
      const parts = [];
      let vertices = 0;
      for (let i = start; i < curves.length && parts.length < BATCH_EDGES; i++) {
        const part = edgeMesh(curves[i]!, vertices); // its indices already count from its place in the batch
        if (parts.length > 0 && vertices + part.role.length > BATCH_VERTICES) break; // starts the next batch
        parts.push(part);
        vertices += part.role.length;
      }
      const batch = this.batch(gl, program, parts, curves.slice(start, start + parts.length));
      for (let k = 0; k < parts.length; k++) this.slots.push({ styles: batch.styles, at: 4 * k });
      this.batches.push(batch);
      start += parts.length;
    }
    this.meshes = [...this.batches.map((b) => b.ghost), ...this.batches.map((b) => b.mesh)];
  }

  private batch(
    gl: GL,
    program: Program,
    parts: ReturnType<typeof edgeMesh>[],
    curves: readonly EdgeCurve[],
  ): Batch {
    const vertices = parts.reduce((n, p) => n + p.role.length, 0);
    const indices = parts.reduce((n, p) => n + p.index.length, 0);
    const position = new Float32Array(3 * vertices);
    const offset = new Float32Array(3 * vertices);
    const role = new Float32Array(vertices);
    const along = new Float32Array(vertices);
    const edge = new Float32Array(vertices); // which uEdges entry styles the vertex
    const length = new Float32Array(vertices); // the edge's length in scene units (its dashes)
    const index = new Uint16Array(indices);
    let v = 0;
    let i = 0;
    parts.forEach((part, k) => {
      const n = part.role.length;
      position.set(part.position, 3 * v);
      offset.set(part.offset, 3 * v);
      role.set(part.role, v);
      along.set(part.along, v);
      edge.fill(k, v, v + n);
      length.fill(edgeLength(curves[k]!), v, v + n);
      index.set(part.index, i);
      v += n;
      i += part.index.length;
    });
    const geometry = new Geometry(
      gl,
      {
        position: { size: 3, data: position },
        offset: { size: 3, data: offset },
        role: { size: 1, data: role },
        along: { size: 1, data: along },
        edge: { size: 1, data: edge },
        span: { size: 1, data: length },
      },
      index,
    );
    const styles = new Float32Array(4 * BATCH_EDGES);
    const draw = (pass: Float32Array, order: number): Mesh => ({
      geometry,
      program,
      order,
      visible: order >= 0,
      before: () => {
        program.uniforms.uEdges = styles;
        program.uniforms.uPass = pass;
      },
    });
    return { geometry, styles, mesh: draw(this.pass, 0), ghost: draw(this.ghostPass, -1) };
  }

  /** Edge `i` (in the curves' order): lit 0..1, lit from its arrow's end, its lit width, its tone. */
  setStyle(i: number, fill: number, reversed: boolean, width: number, tone: Tone): void {
    const slot = this.slots[i];
    if (!slot) return;
    const { styles, at } = slot;
    styles[at] = fill;
    styles[at + 1] = reversed ? 1 : 0;
    styles[at + 2] = width;
    styles[at + 3] = tone;
  }

  /** The whole pass: the arrowheads that open (parent's end, child's end), the lift, the ghosts. */
  setPass(heads: readonly [number, number], lift: number, ghosts: boolean): void {
    this.pass[0] = heads[0];
    this.pass[1] = heads[1];
    this.pass[2] = lift;
    for (const b of this.batches) b.ghost.visible = ghosts;
  }

  dispose(): void {
    for (const b of this.batches) b.geometry.dispose();
  }
}
