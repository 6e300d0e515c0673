// The little WebGL the scene needs, written out: a context, programs whose uniforms are set by name,
// indexed meshes, a canvas texture, and the three matrices of a camera that looks straight down -z
// at a graph turned about one point. (A general 3D library was a third of the player's weight.)

export type GL = WebGLRenderingContext | WebGL2RenderingContext;
export type Mat4 = Float32Array; // column-major, as GLSL reads it
export type UniformValue = number | readonly number[] | Float32Array | CanvasTexture;

/** A WebGL context on the canvas (WebGL 2 when there is one), or null when the browser gives none. */
export function createContext(canvas: HTMLCanvasElement): GL | null {
  const attributes: WebGLContextAttributes = {
    alpha: true,
    premultipliedAlpha: true,
    antialias: true,
    depth: true,
    stencil: false,
  };
  return (canvas.getContext("webgl2", attributes) as GL | null) ?? canvas.getContext("webgl", attributes);
}

export interface DrawState {
  transparent: boolean; // blended over what is drawn (premultiplied colour), after every opaque mesh
  depthTest: boolean;
  depthWrite: boolean;
  cullBack: boolean; // skip triangles facing away (the edge tubes are closed)
}

export class Program {
  readonly program: WebGLProgram;
  readonly attributes = new Map<string, number>(); // name -> location
  private readonly setters = new Map<
    string,
    { set: (value: UniformValue) => void; sent: number[] | null; sampler: boolean }
  >();
  readonly uniforms: Record<string, UniformValue> = {};

  constructor(
    private readonly gl: GL,
    vertex: string,
    fragment: string,
    readonly state: DrawState,
  ) {
    // Null only with the context lost: the calls below then throw, as a shader the driver refuses does.
    const program = gl.createProgram()!;
    for (const [type, source] of [
      [gl.VERTEX_SHADER, vertex],
      [gl.FRAGMENT_SHADER, fragment],
    ] as const) {
      const shader = gl.createShader(type)!;
      gl.shaderSource(shader, source);
      gl.compileShader(shader);
      gl.attachShader(program, shader);
    }
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS))
      throw new Error(`WebGL: ${gl.getProgramInfoLog(program) ?? "link failed"}`);
    this.program = program;
    for (let i = 0; i < gl.getProgramParameter(program, gl.ACTIVE_ATTRIBUTES); i++) {
      const info = gl.getActiveAttrib(program, i);
      if (info) this.attributes.set(info.name, gl.getAttribLocation(program, info.name));
    }
    let unit = 0;
    for (let i = 0; i < gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS); i++) {
      const info = gl.getActiveUniform(program, i);
      const location = info && gl.getUniformLocation(program, info.name);
      if (info && location)
        this.setters.set(info.name.replace(/\[0\]$/, ""), {
          // an array by its name: uEdge, not uEdge[0]
          set: uniformSetter(gl, info.type, location, unit),
          sent: null,
          sampler: info.type === gl.SAMPLER_2D,
        });
      if (info?.type === gl.SAMPLER_2D) unit++;
    }
  }

  /**
   * Make this the current program and send the uniforms it declares whose values changed since they
   * were last sent (a program keeps its uniforms; unknown names are ignored). Textures bind every time.
   */
  use(bind = true): void {
    if (bind) this.gl.useProgram(this.program);
    for (const [name, uniform] of this.setters) {
      const value = this.uniforms[name];
      if (value === undefined) continue;
      if (uniform.sampler || value instanceof CanvasTexture) {
        uniform.set(value);
        continue;
      }
      const numbers = typeof value === "number" ? [value] : value;
      if (uniform.sent && sameNumbers(uniform.sent, numbers)) continue;
      uniform.set(value);
      if (uniform.sent?.length === numbers.length)
        for (let i = 0; i < numbers.length; i++) uniform.sent[i] = numbers[i]!;
      else uniform.sent = Array.from(numbers);
    }
  }
}

function sameNumbers(a: readonly number[], b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function uniformSetter(
  gl: GL,
  type: number,
  location: WebGLUniformLocation,
  unit: number,
): (value: UniformValue) => void {
  const vector = (value: UniformValue): Float32List =>
    typeof value === "number" || value instanceof CanvasTexture ? [0] : (value as Float32List);
  switch (type) {
    case gl.FLOAT:
      return (v) => gl.uniform1f(location, typeof v === "number" ? v : 0);
    case gl.FLOAT_VEC2:
      return (v) => gl.uniform2fv(location, vector(v));
    case gl.FLOAT_VEC3:
      return (v) => gl.uniform3fv(location, vector(v));
    case gl.FLOAT_VEC4:
      return (v) => gl.uniform4fv(location, vector(v));
    case gl.FLOAT_MAT3:
      return (v) => gl.uniformMatrix3fv(location, false, vector(v));
    case gl.FLOAT_MAT4:
      return (v) => gl.uniformMatrix4fv(location, false, vector(v));
    case gl.SAMPLER_2D:
      return (v) => {
        if (v instanceof CanvasTexture) v.bind(unit);
        gl.uniform1i(location, unit);
      };
    default:
      throw new Error(`WebGL: uniform type ${type} not supported`);
  }
}

interface VertexArrays {
  create(): WebGLVertexArrayObject;
  bind(vao: WebGLVertexArrayObject | null): void;
  remove(vao: WebGLVertexArrayObject): void;
}

const vertexArrayApis = new WeakMap<GL, VertexArrays | null>();

/** Vertex array objects (WebGL 2; a WebGL 1 context binds attribute by attribute instead). */
function vertexArrays(gl: GL): VertexArrays | null {
  let api = vertexArrayApis.get(gl);
  if (api !== undefined) return api;
  api =
    "createVertexArray" in gl
      ? {
          create: () => gl.createVertexArray(),
          bind: (vao) => gl.bindVertexArray(vao),
          remove: (vao) => gl.deleteVertexArray(vao),
        }
      : null;
  vertexArrayApis.set(gl, api);
  return api;
}

export interface AttributeData {
  size: number; // components per vertex
  data: Float32Array;
}

/** Vertex buffers and an index buffer; draws `count` indices (all of them unless set). */
export class Geometry {
  private readonly buffers = new Map<
    string,
    { buffer: WebGLBuffer | null; size: number; data: Float32Array }
  >();
  private readonly indexBuffer: WebGLBuffer | null;
  private readonly indexCount: number;
  private readonly vaos = new Map<Program, WebGLVertexArrayObject>();
  count: number;

  constructor(
    private readonly gl: GL,
    attributes: Record<string, AttributeData>,
    index: Uint16Array,
    dynamic = false,
  ) {
    const usage = dynamic ? gl.DYNAMIC_DRAW : gl.STATIC_DRAW;
    for (const [name, { size, data }] of Object.entries(attributes)) {
      const buffer = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ARRAY_BUFFER, data, usage);
      this.buffers.set(name, { buffer, size, data });
    }
    this.indexBuffer = gl.createBuffer();
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indexBuffer);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, index, gl.STATIC_DRAW);
    this.indexCount = index.length;
    this.count = index.length;
  }

  /** Send an attribute's array again after its contents changed. */
  update(name: string): void {
    const entry = this.buffers.get(name);
    if (!entry) return;
    this.gl.bindBuffer(this.gl.ARRAY_BUFFER, entry.buffer);
    this.gl.bufferSubData(this.gl.ARRAY_BUFFER, 0, entry.data);
  }

  setCount(count: number): void {
    this.count = Math.max(0, Math.min(this.indexCount, count));
  }

  /** Bind the attributes `program` reads and draw the triangles. */
  draw(program: Program, enabled: Set<number>): void {
    const gl = this.gl;
    const arrays = vertexArrays(gl);
    if (arrays) {
      // One vertex array object per program: a draw is one bind, not a bind per attribute.
      let vao = this.vaos.get(program);
      if (!vao) {
        vao = arrays.create();
        arrays.bind(vao);
        this.bindAttributes(program);
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indexBuffer);
        this.vaos.set(program, vao);
      } else arrays.bind(vao);
      gl.drawElements(gl.TRIANGLES, this.count, gl.UNSIGNED_SHORT, 0);
      arrays.bind(null); // never leave one bound: the next buffer bound would land in it
      return;
    }
    const used = this.bindAttributes(program);
    for (const location of enabled) if (!used.has(location)) gl.disableVertexAttribArray(location);
    enabled.clear();
    for (const location of used) enabled.add(location);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indexBuffer);
    gl.drawElements(gl.TRIANGLES, this.count, gl.UNSIGNED_SHORT, 0);
  }

  private bindAttributes(program: Program): Set<number> {
    const gl = this.gl;
    const used = new Set<number>();
    for (const [name, location] of program.attributes) {
      const entry = this.buffers.get(name);
      if (!entry || location < 0) continue;
      gl.bindBuffer(gl.ARRAY_BUFFER, entry.buffer);
      gl.vertexAttribPointer(location, entry.size, gl.FLOAT, false, 0, 0);
      gl.enableVertexAttribArray(location);
      used.add(location);
    }
    return used;
  }

  dispose(): void {
    for (const { buffer } of this.buffers.values()) this.gl.deleteBuffer(buffer);
    this.gl.deleteBuffer(this.indexBuffer);
    for (const vao of this.vaos.values()) vertexArrays(this.gl)?.remove(vao);
    this.vaos.clear();
  }
}

/** One thing to draw: a geometry with a program, the uniforms it sets just before, its place in the order. */
export interface Mesh {
  geometry: Geometry;
  program: Program;
  order: number; // lower first, within the opaque and then the transparent meshes
  visible: boolean;
  before?: () => void; // sets the program's per-mesh uniforms
}

export class Renderer {
  readonly canvas: HTMLCanvasElement;
  private readonly enabled = new Set<number>(); // vertex attribute arrays currently enabled
  private width = 1;
  private height = 1;

  constructor(
    readonly gl: GL,
    private readonly dpr: number,
  ) {
    this.canvas = gl.canvas as HTMLCanvasElement;
    gl.clearColor(0, 0, 0, 0);
  }

  /** The drawing buffer for a canvas of width × height CSS px. */
  setSize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    this.canvas.width = Math.round(width * this.dpr);
    this.canvas.height = Math.round(height * this.dpr);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
  }

  /** Clear, then draw the visible meshes: opaque ones first, then the blended ones, each by `order`. */
  render(meshes: readonly Mesh[], shared: Record<string, UniformValue>): void {
    const gl = this.gl;
    gl.viewport(0, 0, Math.round(this.width * this.dpr), Math.round(this.height * this.dpr));
    gl.depthMask(true);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    const visible = meshes.filter((m) => m.visible && m.geometry.count > 0);
    const rank = (m: Mesh): number => (m.program.state.transparent ? 1e6 : 0) + m.order;
    visible.sort((a, b) => rank(a) - rank(b)); // stable: equal ranks keep their order
    // Every GL call crosses to the GPU process: the state is set only where it changes (the edges,
    // most of the draws, share one program and one state).
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.cullFace(gl.BACK);
    let state: DrawState | null = null;
    let program: Program | null = null;
    for (const mesh of visible) {
      const next = mesh.program.state;
      if (next !== state) {
        toggle(gl, gl.BLEND, next.transparent);
        toggle(gl, gl.DEPTH_TEST, next.depthTest);
        gl.depthMask(next.depthWrite);
        toggle(gl, gl.CULL_FACE, next.cullBack);
        state = next;
      }
      Object.assign(mesh.program.uniforms, shared);
      mesh.before?.();
      mesh.program.use(mesh.program !== program);
      program = mesh.program;
      mesh.geometry.draw(mesh.program, this.enabled);
    }
  }
}

function toggle(gl: GL, capability: number, on: boolean): void {
  if (on) gl.enable(capability);
  else gl.disable(capability);
}

/** A 2D canvas as a texture (the wall's grid and shadows), uploaded when it is next bound after set(). */
export class CanvasTexture {
  private readonly texture: WebGLTexture | null;
  private source: HTMLCanvasElement | null = null;

  constructor(private readonly gl: GL) {
    this.texture = gl.createTexture();
  }

  set(canvas: HTMLCanvasElement): void {
    this.source = canvas;
  }

  bind(unit: number): void {
    const gl = this.gl;
    gl.activeTexture(gl.TEXTURE0 + unit);
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    if (!this.source) return;
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true); // the shader outputs premultiplied colour
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, this.source);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    this.source = null;
  }
}
