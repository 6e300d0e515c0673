// Traced DAG + layout -> the timeline the player animates; mirror of src/tinydag/timeline.py.
// Objects are built with their keys in Python's order, so dumps() below prints Python's bytes.
import { layout } from "./layout";
import { isDerived, rootOf, trace, type Trace, type VisualNode } from "./trace";
import type { BackwardStep, Edge, EdgeId, Primitive, Timeline, TimelineNode } from "./types";
import type { Value } from "./value";

export const VERSION = 1;

/** The whole timeline for an expression; throws TinyDagError on bad input. */
export function buildTimeline(expression: string, values: Record<string, number>): Timeline {
  return timelineOf(trace(expression, values));
}

export function timelineOf(t: Trace): Timeline {
  const [edges, edgeOf] = edgesOf(t);
  const backward = backwardSteps(t, edges, edgeOf);
  const visualOutputs = new Map(t.nodes.map((n) => [n.out, n.id]));
  const root = rootOf(t);
  return {
    version: VERSION,
    expression: t.expression,
    root: root.id,
    variables: t.variables.map((v) => ({ name: v.name ?? "", node: v.id, value: v.out.data })),
    nodes: nodeEntries(t),
    edges,
    topo: t.topo.flatMap((v) => visualOutputs.get(v) ?? []),
    forward: t.nodes
      .filter((n) => n.inputs.length > 0)
      .map((n) => ({
        node: n.id,
        value: n.out.data,
        edges: edges.filter((e) => e.to === n.id).map((e) => e.id),
      })),
    seed: { node: root.id, grad: 1 },
    backward,
  };
}

/** One edge per input slot, and which (primitive, child index) hand-off each one carries. */
export function edgesOf(t: Trace): [Edge[], Map<Value, EdgeId[]>] {
  const edgeOf = new Map<Value, EdgeId[]>(); // primitive -> edge id per child index (hidden: none)
  const edges: Edge[] = [];
  for (const node of t.nodes) {
    node.exits.forEach((exit, slot) => {
      const source = node.inputs[slot]!;
      const id = `e${edges.length}`;
      const ids = edgeOf.get(exit.primitive) ?? [];
      ids[exit.index] = id;
      edgeOf.set(exit.primitive, ids);
      edges.push({ id, from: source.id, to: node.id, slot, local: exit.local, contribution: 0 });
    });
  }
  return [edges, edgeOf];
}

/** The recorded hand-offs that cross a visual edge, in backward's order; each edge keeps its contribution. */
export function backwardSteps(t: Trace, edges: Edge[], edgeOf: ReadonlyMap<Value, EdgeId[]>): BackwardStep[] {
  const owner = new Map<Value, VisualNode>();
  for (const n of t.nodes) for (const p of n.primitives) owner.set(p, n);
  const byId = new Map(edges.map((e) => [e.id, e]));
  const backward: BackwardStep[] = [];
  for (const event of t.events) {
    const crossed = edgeOf.get(event.primitive)?.[event.index];
    if (crossed === undefined) continue; // a hand-off inside a derived node
    const edge = byId.get(crossed)!;
    const parent = owner.get(event.primitive)!;
    edge.contribution = event.contribution;
    backward.push({
      edge: crossed,
      parent: parent.id,
      child: edge.from,
      incoming: parent.out.grad,
      local: edge.local,
      contribution: event.contribution,
      grad_after: event.grad_after,
    });
  }
  return backward;
}

export function nodeEntries(t: Trace): TimelineNode[] {
  const positions = layout(t.nodes);
  return t.nodes.map((node): TimelineNode => {
    const p = positions.get(node.id)!;
    const entry: TimelineNode = {
      id: node.id,
      op: node.op,
      label: node.label,
      start: node.start,
      end: node.end,
      value: node.out.data,
      grad: node.out.grad,
      inputs: node.inputs.map((i) => i.id),
      column: p.column,
      row: p.row,
      x: p.x,
      y: p.y,
      z: p.z,
    };
    if (node.name !== null) entry.name = node.name;
    if (node.exponent !== null) {
      entry.exponent = node.exponent;
      entry.exponent_label = node.exponent_label ?? "";
    }
    if (isDerived(node)) {
      entry.derived = true;
      entry.primitives = primitivesOf(node);
    }
    return entry;
  });
}

/**
 * The primitive Values a derived node was built from, children first; ids `nK.i`.
 * Value keeps no operator name, but the constructions are fixed by the class:
 * a - b = a + (b * -1), a / b = a * b ** -1, -a = a * -1.
 */
export function primitivesOf(node: VisualNode): Primitive[] {
  const outside = new Map(node.inputs.map((i) => [i.out, i.id]));
  const localIds = new Map(node.primitives.map((p, k) => [p, `${node.id}.${k}`]));
  return node.primitives.map((prim) => {
    const entry: Primitive = {
      id: localIds.get(prim)!,
      op: primitiveOp(node, prim),
      value: prim.data,
      grad: prim.grad,
      inputs: prim._children.map((c) => localIds.get(c) ?? outside.get(c)!),
      local: [...prim._local_grads],
    };
    if (entry.op === "**") entry.exponent = -1;
    return entry;
  });
}

function primitiveOp(node: VisualNode, prim: Value): Primitive["op"] {
  const arity = prim._children.length;
  if (arity === 0) return "const";
  if (arity === 1) return "**";
  return node.op === "-" && prim === node.out ? "+" : "*";
}

// ---- JSON exactly as Python's json.dumps(..., ensure_ascii=False, separators=(",", ":")) ----

const INT_KEYS: ReadonlySet<string> = new Set(["version", "start", "end", "column", "row", "slot"]);

/** Python's dumps(): the same bytes, given that these keys hold ints in Python and all else floats. */
export function dumps(value: unknown, intKeys: ReadonlySet<string> = INT_KEYS): string {
  const write = (v: unknown, key: string): string => {
    if (typeof v === "number") return intKeys.has(key) && Number.isInteger(v) ? String(v) : formatFloat(v);
    if (typeof v === "string" || typeof v === "boolean") return JSON.stringify(v);
    if (v === null || v === undefined) return "null";
    if (Array.isArray(v)) return `[${v.map((x: unknown) => write(x, key)).join(",")}]`;
    const object = v as { toJSON?: () => unknown };
    if (typeof object.toJSON === "function") return write(object.toJSON(), key);
    const fields = Object.entries(v).filter(([, x]) => x !== undefined);
    return `{${fields.map(([k, x]) => `${JSON.stringify(k)}:${write(x, k)}`).join(",")}}`;
  };
  return write(value, "");
}

/** Python's float repr: the shortest digits that round-trip (as String() finds them), Python's layout. */
export function formatFloat(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`Out of range float values are not JSON compliant: ${x}`);
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa = "", power = "0"] = String(Math.abs(x)).split("e");
  const [whole = "", fraction = ""] = mantissa.split(".");
  let digits = (whole + fraction).replace(/^0+/, "");
  let scale = Number(power) - fraction.length; // |x| = digits * 10 ** scale
  while (digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    scale += 1;
  }
  const e = scale + digits.length - 1; // |x| = d.ddd * 10 ** e
  const sign = x < 0 ? "-" : "";
  if (e < -4 || e >= 16) {
    // where repr switches to scientific notation
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
  if (digits.length <= e + 1) return `${sign}${digits}${"0".repeat(e + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
}
