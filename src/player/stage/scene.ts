// The WebGL half of the stage (gl.ts): shaded edges with arrowheads, pulses travelling along them,
// soft glows behind the nodes that just changed, and a wall behind the graph that carries a grid
// and the graph's shadows (backdrop.ts) so the depth is visible. Cards and labels are HTML (cards.ts,
// labels.ts), placed with projector() so text stays as crisp and selectable as the page's own.

import { CELL, drawBackdrop, gridOf, WALL_Z } from "./backdrop";
import type { Palette, RGB } from "./colors";
import { mix } from "./colors";
import { type EdgeCurve, liftedPoint } from "./curves";
import { EdgeBatches, TONE } from "./edges";
import type { V3 as Point3 } from "./fit";
import { edgeLook } from "./encoding";
import type { V3 } from "./fit";
import { CanvasTexture, createContext, Geometry, type Mat4, type Mesh, Program, Renderer } from "./gl";
import { eyeInGraph, modelView, perspective, rotation } from "./matrices";
import { DEFAULT_VIEW, type View } from "../model/view";
import { edgeFragment, edgeVertex, spriteFragment, spriteVertex, wallFragment, wallVertex } from "./shaders";
import { Sprites } from "./sprites";
import type { Frame } from "../model/timing";

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
  lift: number; // scene units the backward layer stands out towards the viewer (0: flat)
}

export class Scene {
  private readonly renderer: Renderer;
  private readonly gl: Renderer["gl"];
  private projection: Mat4 = perspective(FOV, 1, 0.1, 200);
  private camera: Point3 = [0, 0, 10]; // looking straight down -z
  private turn = rotation(DEFAULT_VIEW.pitch, DEFAULT_VIEW.yaw);
  private pitchYaw: [number, number] = [DEFAULT_VIEW.pitch, DEFAULT_VIEW.yaw]; // the view, about the middle of what the stage shows
  private edgeShader: Program | null = null; // prepare(), or with the first edges
  private spriteProgram: Program | null = null; // shared by glows and pulses (compiling is slow): prepare()
  private edges: EdgeBatches | null = null;
  private glows: Sprites | null = null;
  private pulses: Sprites | null = null;
  private positions = new Map<string, V3>();
  private width = 0;
  private height = 0;
  private distance = 10;
  private ppu = 1;
  private visibleHeight = 0; // CSS px of the canvas the stage shows (the buffer may be taller)
  private pan: [number, number] = [0, 0]; // scene units: the point of the graph at the stage's centre
  private skew = 0; // scene units the camera stands right of `pan` (centre())
  private palette: Palette | null = null;
  private curves: EdgeCurve[] = [];
  private cardHeight = 0.9;
  private wallProgram: Program | null = null; // prepare(), or with the first wall
  private readonly wallTexture: CanvasTexture;
  private readonly wallCanvas = document.createElement("canvas");
  private wall: Mesh | null = null;
  private meshes: Mesh[] = []; // what render() draws: edges, ghosts, glows, pulses and the wall
  private where = 0; // counts changes of where things land on screen (graph, size, pan, view): see version
  private wallDirty = true; // graph, zoom or palette changed: redraw the wall's texture
  private eye: Point3 = [0, 0, 100]; // the default view's camera, in the graph's units: the backward layer rises towards it
  private turned = false; // away from the default view: the two layers show apart
  private drawn = false; // the very first frame shows the graph at once and the wall one frame later

  static create(canvas: HTMLCanvasElement): Scene | null {
    const gl = createContext(canvas);
    if (!gl) return null; // no WebGL: the static figure stays
    try {
      return new Scene(gl);
    } catch {
      return null; // a shader the driver refuses
    }
  }

  private constructor(gl: Renderer["gl"]) {
    this.renderer = new Renderer(gl, Math.min(2, devicePixelRatio || 1));
    this.gl = gl;
    this.wallTexture = new CanvasTexture(gl);
  }

  /**
   * Compile the programs ahead of the first frame, one per call (each costs milliseconds): waking
   * calls it in tasks of its own until it returns false.
   */
  prepare(): boolean {
    if (!this.edgeShader) this.edgeProgram();
    else if (!this.spriteProgram) this.sprites();
    else if (!this.wallProgram) this.wallShader();
    else return false;
    return true;
  }

  private edgeProgram(): Program {
    if (!this.edgeShader) {
      const opaque = { transparent: false, depthTest: true, depthWrite: true, cullBack: true };
      this.edgeShader = new Program(this.gl, edgeVertex, edgeFragment, opaque);
      Object.assign(this.edgeShader.uniforms, { uBg: [1, 1, 1], uEye: this.eye });
    }
    return this.edgeShader;
  }

  private sprites(): Program {
    const overlay = { transparent: true, depthTest: false, depthWrite: false, cullBack: false };
    this.spriteProgram ??= new Program(this.gl, spriteVertex, spriteFragment, overlay);
    return this.spriteProgram;
  }

  private wallShader(): Program {
    if (!this.wallProgram) {
      this.wallProgram = new Program(this.gl, wallVertex, wallFragment, {
        transparent: true,
        depthTest: true,
        depthWrite: false,
        cullBack: false,
      });
      Object.assign(this.wallProgram.uniforms, { tMap: this.wallTexture, uCell: CELL });
    }
    return this.wallProgram;
  }

  /** A new graph structure: rebuild the edge meshes and the sprite pools. */
  setGraph(curves: EdgeCurve[], positions: Map<string, V3>, cardHeight: number): void {
    this.edges?.dispose();
    this.glows?.dispose();
    this.pulses?.dispose();
    this.positions = positions;
    this.curves = curves;
    this.cardHeight = cardHeight;
    this.where++;
    this.wallDirty = true;
    this.edges = new EdgeBatches(this.gl, this.edgeProgram(), curves);
    this.glows = new Sprites(this.gl, Math.max(1, positions.size), this.sprites(), {
      core: false,
      aspect: [1.25, 0.8],
    });
    this.pulses = new Sprites(this.gl, Math.max(1, curves.length), this.sprites(), {
      core: true,
      aspect: [1, 1],
    });
    this.collectMeshes();
  }

  private collectMeshes(): void {
    this.meshes = [...(this.edges?.meshes ?? [])];
    if (this.glows) this.meshes.push(this.glows.mesh);
    if (this.pulses) this.meshes.push(this.pulses.mesh);
    if (this.wall) this.meshes.push(this.wall);
  }

  setPalette(palette: Palette): void {
    this.palette = palette;
    this.wallDirty = true;
  }

  /** Redraw the wall's grid and shadows (only after the graph, the zoom or the palette changed). */
  private updateWall(palette: Palette): void {
    if (!this.wallDirty) return;
    this.wallDirty = false;
    this.wall?.geometry.dispose();
    this.wall = null;
    this.collectMeshes();
    if (this.positions.size === 0) return;
    const dpr = Math.min(2, devicePixelRatio || 1);
    const e = drawBackdrop(this.wallCanvas, {
      curves: this.curves,
      positions: this.positions,
      cardHeight: this.cardHeight,
      density: this.ppu * dpr,
      palette,
    });
    this.wallTexture.set(this.wallCanvas);
    const z = WALL_Z;
    const geometry = new Geometry(
      this.gl,
      {
        position: {
          size: 3,
          data: new Float32Array([e.x0, e.y0, z, e.x1, e.y0, z, e.x1, e.y1, z, e.x0, e.y1, z]),
        },
        uv: { size: 2, data: new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]) }, // the canvas's first row is the wall's top
      },
      new Uint16Array([0, 1, 2, 0, 2, 3]),
    );
    const program = this.wallShader();
    const grid = gridOf(palette);
    Object.assign(program.uniforms, { uGrid: grid.colour, uGridAlpha: grid.alpha });
    this.wall = { geometry, program, order: -30, visible: true };
    this.collectMeshes();
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
    if (Math.abs(ppu - this.ppu) > 0.5) this.wallDirty = true;
    this.ppu = ppu;
    this.visibleHeight = height;
    this.distance = this.height / (2 * ppu * Math.tan((FOV * Math.PI) / 360));
    this.projection = perspective(FOV, this.width / this.height, this.distance / 20, this.distance * 4);
    this.aim();
    this.where++;
  }

  /** Show the point (x, y) of the graph, in scene units, at the stage's centre (a panned big graph). */
  setPan(x: number, y: number): void {
    if (x === this.pan[0] && y === this.pan[1]) return;
    this.pan = [x, y];
    this.aim();
    this.where++;
  }

  private aim(): void {
    const [x, y] = this.pan;
    const shift = (this.height - this.visibleHeight) / 2 / this.ppu; // scene units
    this.camera = [x + this.skew, y - shift, this.distance];
    // Where the camera is, in the graph's own units, when the graph is turned to the default view.
    this.eye = eyeInGraph(rotation(DEFAULT_VIEW.pitch, DEFAULT_VIEW.yaw), this.pivot(), this.camera);
    this.edgeProgram().uniforms.uEye = this.eye;
  }

  /**
   * A graph wholly in view, turned, comes nearer on one side, where its cards grow and move outwards:
   * the camera moves sideways so that its outermost cards keep even margins (walkthrough 31: the
   * nearer side's card touched the frame, the other side's stood 50 px off it). `half`: half a card's
   * width, scene units; `on` false (a flat map): no move.
   */
  centre(on: boolean, half: number): void {
    const [r, d, [px, py]] = [this.turn, this.distance, this.pan];
    // The outermost edges, turned, before the perspective, each with its scale (by turned x alone:
    // the nearer of two the same distance out differs by less than a px).
    let left = [0, 1];
    let right = [0, 1];
    for (const [x, y, z] of on ? this.positions.values() : []) {
      const [dx, dy] = [x - px, y - py];
      const turned = r[0]! * dx + r[3]! * dy + r[6]! * z;
      const scale = d / (d - r[2]! * dx - r[5]! * dy - r[8]! * z);
      if (turned - half < left[0]!) left = [turned - half, scale];
      if (turned + half > right[0]!) right = [turned + half, scale];
    }
    // Moved by s, each lands at (x - s)·scale: as far left of the centre as the other right of it.
    const skew = (left[0]! * left[1]! + right[0]! * right[1]!) / (left[1]! + right[1]!);
    if (skew === this.skew) return;
    this.skew = skew;
    this.aim();
    this.where++;
  }

  /** The view turns about the middle of what the stage shows, so a panned graph turns in place. */
  private pivot(): Point3 {
    return [this.pan[0], this.pan[1], 0];
  }

  /** A point of an edge where the scene draws it: raised `lift` towards the default view's eye. */
  edgePoint(curve: EdgeCurve, at: number, lift: number): Point3 {
    return liftedPoint(curve, at, lift, this.eye);
  }

  setView(view: View): void {
    if (view.pitch === this.pitchYaw[0] && view.yaw === this.pitchYaw[1]) return;
    this.pitchYaw = [view.pitch, view.yaw];
    this.where++;
    this.turn = rotation(view.pitch, view.yaw);
    this.turned = Math.abs(view.yaw - DEFAULT_VIEW.yaw) + Math.abs(view.pitch - DEFAULT_VIEW.pitch) > 0.04;
  }

  draw(input: SceneInput): void {
    const palette = this.palette;
    if (!palette) return;
    if (this.drawn) this.updateWall(palette);
    if (this.wallProgram) this.wallProgram.uniforms.uDensity = this.ppu * Math.min(2, devicePixelRatio || 1);
    this.drawn = true;
    const { frame } = input;
    const base = mix(palette.bg, palette.fg, 0.42);
    const quiet = mix(palette.bg, palette.fg, 0.28);
    const backward = frame.direction === "backward";
    const lit = backward ? palette.accent : palette.primary;
    const dead = mix(palette.bg, palette.fg, 0.3);
    const ghost = mix(palette.bg, palette.primary, 0.4);
    Object.assign(this.edgeProgram().uniforms, {
      uBg: palette.bg,
      uBase: input.dimmed ? quiet : base,
      uLit: lit,
      uNegative: palette.negative,
      uDead: dead,
      uGhost: ghost,
    });
    const edges = this.edges;
    if (edges) {
      this.curves.forEach((curve, i) => {
        const state = frame.edges.get(curve.id);
        const look = edgeLook(backward ? (state?.label?.contribution ?? null) : null);
        const tone = look.sign === "negative" ? TONE.negative : look.sign === "zero" ? TONE.dead : TONE.lit;
        edges.setStyle(i, state?.fill ?? 0, state?.reversed ?? false, look.width, tone);
      });
      // Turned, the raised backward layer shows the values' plane below it: faint, pointing forward.
      const lift = backward ? input.lift : 0;
      edges.setPass(backward ? [0, 1] : [1, 0], lift, lift > 0.01 && this.turned);
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
        const edge = this.curves.find((c) => c.id === p.edge);
        if (!edge) return [];
        const contribution = p.kind === "backward" ? frame.edges.get(p.edge)?.label?.contribution : undefined;
        const colour =
          p.kind === "forward"
            ? palette.primary
            : contribution !== undefined && contribution < 0
              ? palette.negative
              : palette.accent;
        return [
          {
            at: this.edgePoint(edge, p.at, p.kind === "backward" ? input.lift : 0),
            colour,
            intensity: 1,
            size: 0.2,
          },
        ];
      }),
    );
    const modelViewMatrix = modelView(this.turn, this.pivot(), this.camera);
    // The model-view is a rotation and a translation, so the normals turn by the rotation alone.
    this.renderer.render(this.meshes, {
      modelViewMatrix,
      projectionMatrix: this.projection,
      normalMatrix: this.turn,
    });
  }

  /** Changes whenever a point of the graph may land elsewhere on screen (callers cache projections by it). */
  get version(): number {
    return this.where;
  }

  /** The wall still has to be drawn (the caller asks for one more frame). */
  get wallPending(): boolean {
    return this.wallDirty;
  }

  /** Where points of the graph land on the stage, in CSS px, for the current view. */
  projector(): (point: V3) => Projected {
    const m = modelView(this.turn, this.pivot(), this.camera);
    const p = this.projection;
    const { width, height, distance } = this;
    return ([x, y, z]) => {
      const vx = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
      const vy = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
      const vz = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
      const cx = p[0]! * vx + p[4]! * vy + p[8]! * vz + p[12]!;
      const cy = p[1]! * vx + p[5]! * vy + p[9]! * vz + p[13]!;
      const cw = p[3]! * vx + p[7]! * vy + p[11]! * vz + p[15]! || 1e-6;
      return {
        x: ((cx / cw + 1) / 2) * width,
        y: ((1 - cy / cw) / 2) * height,
        depth: -vz,
        scale: distance / Math.max(1e-6, -vz),
      };
    };
  }
}
