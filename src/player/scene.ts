// The WebGL half of the stage (OGL): shaded edges with arrowheads, pulses travelling along them and
// soft glows behind the nodes that just changed. Cards and labels are HTML (cards.ts, labels.ts),
// placed with project() so text stays as crisp and selectable as the page's own.

import { Camera, Geometry, Mesh, Program, Renderer, Transform, Vec3 } from "ogl";
import type { Palette, RGB } from "./colors";
import { mix } from "./colors";
import { type EdgeCurve, edgeMesh, pointOnEdge } from "./curves";
import type { V3 } from "./fit";
import type { View } from "./model";
import { edgeFragment, edgeVertex, spriteFragment, spriteVertex } from "./shaders";
import type { Frame } from "./timing";

const FOV = 22; // degrees, vertical: narrow, so rotating does not distort the cards much

export interface Projected {
  x: number; // CSS px from the stage's left
  y: number; // CSS px from the stage's top
  depth: number; // distance from the camera (for stacking cards)
  scale: number; // perspective scale relative to the centre depth
}

export interface SceneInput {
  frame: Frame;
  flagged: string | null; // node id with a numeric error
  dimmed: boolean; // forward pass has not started: edges wait in a quieter tone
}

interface EdgeStyle {
  base: RGB;
  lit: RGB;
  fill: number;
  reversed: number;
}

interface EdgeMesh {
  mesh: Mesh;
  curve: EdgeCurve;
  style: EdgeStyle;
}

interface SpriteStyle {
  core: boolean; // pulses have a white-hot core; glows are soft
  aspect: [number, number];
}

class Sprites {
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

export class Scene {
  private readonly renderer: Renderer;
  private readonly gl: Renderer["gl"];
  private readonly camera: Camera;
  private readonly root = new Transform();
  private readonly graph = new Transform();
  private readonly edgeProgram: Program;
  private readonly spriteProgram: Program; // shared by glows and pulses: compiling is slow
  private edges: EdgeMesh[] = [];
  private glows: Sprites | null = null;
  private pulses: Sprites | null = null;
  private positions = new Map<string, V3>();
  private width = 0;
  private height = 0;
  private distance = 10;
  private palette: Palette | null = null;

  static create(canvas: HTMLCanvasElement): Scene | null {
    try {
      return new Scene(canvas); // OGL throws when the browser gives no WebGL context
    } catch {
      return null;
    }
  }

  private constructor(canvas: HTMLCanvasElement) {
    this.renderer = new Renderer({
      canvas,
      alpha: true,
      premultipliedAlpha: true,
      antialias: true,
      dpr: Math.min(2, window.devicePixelRatio || 1),
    });
    this.gl = this.renderer.gl;
    this.gl.clearColor(0, 0, 0, 0);
    this.camera = new Camera(this.gl, { fov: FOV, near: 0.1, far: 200 });
    this.graph.setParent(this.root);
    this.edgeProgram = new Program(this.gl, {
      vertex: edgeVertex,
      fragment: edgeFragment,
      uniforms: {
        uBase: { value: [0.5, 0.5, 0.5] },
        uLit: { value: [0.2, 0.3, 0.8] },
        uFill: { value: 0 },
        uReversed: { value: 0 },
      },
    });
    this.spriteProgram = new Program(this.gl, {
      vertex: spriteVertex,
      fragment: spriteFragment,
      uniforms: { uCore: { value: 0 }, uAspect: { value: [1, 1] } },
      transparent: true,
      depthTest: false,
      depthWrite: false,
      cullFace: false,
    });
  }

  /** A new graph structure: rebuild the edge meshes and the sprite pools. */
  setGraph(curves: EdgeCurve[], positions: Map<string, V3>): void {
    for (const e of this.edges) {
      e.mesh.setParent(null);
      e.mesh.geometry.remove();
    }
    this.glows?.dispose();
    this.pulses?.dispose();
    this.positions = positions;
    this.edges = curves.map((curve) => {
      const data = edgeMesh(curve);
      const geometry = new Geometry(this.gl, {
        position: { size: 3, data: data.position },
        normal: { size: 3, data: data.normal },
        along: { size: 1, data: data.along },
        index: { data: data.index },
      });
      const mesh = new Mesh(this.gl, { geometry, program: this.edgeProgram });
      mesh.setParent(this.graph);
      const style: EdgeStyle = { base: [0.5, 0.5, 0.5], lit: [0.5, 0.5, 0.5], fill: 0, reversed: 0 };
      const uniforms = this.edgeProgram.uniforms;
      mesh.onBeforeRender(() => {
        uniforms["uBase"].value = style.base;
        uniforms["uLit"].value = style.lit;
        uniforms["uFill"].value = style.fill;
        uniforms["uReversed"].value = style.reversed;
      });
      return { mesh, curve, style };
    });
    this.glows = new Sprites(this.gl, this.graph, Math.max(1, positions.size), this.spriteProgram, { core: false, aspect: [1.25, 0.8] });
    this.pulses = new Sprites(this.gl, this.graph, Math.max(1, curves.length), this.spriteProgram, { core: true, aspect: [1, 1] });
  }

  setPalette(palette: Palette): void {
    this.palette = palette;
  }

  /** Stage size in CSS px and the zoom (CSS px per scene unit at the centre). */
  setSize(width: number, height: number, ppu: number): void {
    // Reallocating the drawing buffer is slow (tens of ms in software GL), and a new expression
    // often changes the stage height. So the canvas only grows, in steps of 128 px, and is clipped
    // by the stage; the camera shifts so the graph stays centred in the visible part.
    const w = Math.max(1, Math.round(width));
    const wanted = Math.ceil(Math.max(1, height) / 128) * 128;
    const bufferHeight = w === this.width ? Math.max(this.height, wanted) : wanted;
    if (w !== this.width || bufferHeight !== this.height) {
      this.width = w;
      this.height = bufferHeight;
      this.renderer.setSize(this.width, this.height);
    }
    this.distance = this.height / (2 * ppu * Math.tan((FOV * Math.PI) / 360));
    const shift = (this.height - height) / 2 / ppu; // scene units
    this.camera.perspective({ aspect: this.width / this.height, near: this.distance / 20, far: this.distance * 4 });
    this.camera.position.set(0, -shift, this.distance);
    this.camera.lookAt([0, -shift, 0]);
  }


  setView(view: View): void {
    this.graph.rotation.set(view.pitch, view.yaw, 0);
  }

  draw(input: SceneInput): void {
    const palette = this.palette;
    if (!palette) return;
    const { frame } = input;
    const base = mix(palette.bg, palette.fg, 0.42);
    const quiet = mix(palette.bg, palette.fg, 0.28);
    const lit = frame.direction === "forward" ? palette.primary : palette.accent;
    for (const e of this.edges) {
      const state = frame.edges.get(e.curve.id);
      e.style.base = input.dimmed ? quiet : base;
      e.style.lit = lit;
      e.style.fill = state?.fill ?? 0;
      e.style.reversed = state?.reversed ? 1 : 0;
    }
    const glowItems: { at: V3; colour: RGB; intensity: number; size: number }[] = [];
    for (const [id, node] of frame.nodes) {
      const at = this.positions.get(id);
      if (!at) continue;
      if (id === input.flagged) glowItems.push({ at, colour: palette.error, intensity: 0.85, size: 1.15 });
      else if (node.glow > 0.01) glowItems.push({ at, colour: lit, intensity: node.glow * 0.75, size: 1.15 });
    }
    this.glows?.set(glowItems);
    this.pulses?.set(
      frame.pulses.flatMap((p) => {
        const edge = this.edges.find((e) => e.curve.id === p.edge);
        if (!edge) return [];
        const colour = p.kind === "forward" ? palette.primary : palette.accent;
        return [{ at: pointOnEdge(edge.curve, p.at), colour, intensity: 1, size: 0.2 }];
      }),
    );
    this.renderer.render({ scene: this.root, camera: this.camera, frustumCull: false });
  }

  /** Where a point of the graph lands on the stage, in CSS px. */
  project(point: V3): Projected {
    this.root.updateMatrixWorld();
    this.camera.updateMatrixWorld();
    const v = new Vec3(point[0], point[1], point[2]).applyMatrix4(this.graph.worldMatrix);
    v.applyMatrix4(this.camera.viewMatrix);
    const depth = -v.z;
    v.applyMatrix4(this.camera.projectionMatrix);
    return {
      x: ((v.x + 1) / 2) * this.width,
      y: ((1 - v.y) / 2) * this.height,
      depth,
      scale: this.distance / Math.max(1e-6, depth),
    };
  }

  /** Read the drawing buffer back; call right after draw() (tests check the canvas is not blank). */
  pixelStats(): { drawn: number; total: number; colours: number } {
    const gl = this.gl;
    const w = gl.drawingBufferWidth;
    const h = gl.drawingBufferHeight;
    const pixels = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    let drawn = 0;
    const colours = new Set<number>();
    for (let i = 0; i < pixels.length; i += 4) {
      if (pixels[i + 3]! === 0) continue;
      drawn++;
      colours.add(((pixels[i]! >> 3) << 10) | ((pixels[i + 1]! >> 3) << 5) | (pixels[i + 2]! >> 3));
    }
    return { drawn, total: w * h, colours: colours.size };
  }

  dispose(): void {
    this.gl.getExtension("WEBGL_lose_context")?.loseContext();
  }
}
