// Engine benchmark (measured, never asserted): prints ONE JSON object on stdout, the same shape as
// bench/engine_py.py, so the two can be put side by side (TS/Python ratio per figure).
//   npx esbuild bench/engine.ts --bundle --platform=node --format=esm --outfile=.build/bench/engine.mjs \
//     --log-level=warning && node .build/bench/engine.mjs
// Figures are medians in milliseconds per call; small calls are timed in batches so the clock's
// resolution does not dominate.
import { performance } from "node:perf_hooks";
import { layout } from "../src/inference/layout";
import { parse } from "../src/inference/parse";
import { buildTimeline, timelineOf } from "../src/inference/timeline";
import { rootOf, trace } from "../src/inference/trace";
import { Value } from "../src/inference/value";

const DEFAULT = { expression: "(a + b) * c", values: { a: 2, b: -3, c: 10 } };
const FORTY = {
  // exactly 40 visual nodes (the engine's limit), every kind of operation
  expression:
    "relu(a * b + c * d - e / f) * exp(g - h) + log(a * a + 1) ** 2 - (b - c) / (d + 2) " +
    "+ relu(-e * f) * (g + h * 0.5) - exp(-a) * b",
  values: { a: 0.5, b: -1.5, c: 2, d: 3, e: -0.5, f: 1.25, g: 0.75, h: -2 },
};
const DEEPEST = `${"a/(".repeat(38)}a/a${")".repeat(38)}`; // 40 nodes, 79 Values deep: backward()'s deepest
const SIZE = 100_000;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Median ms per call of fn over `batches` batches of `batch` calls, after `warmup` batches. */
function measure(
  fn: () => unknown,
  batches: number,
  batch = 1,
  setup: () => void = () => {},
  warmup = 20,
): { median_ms: number; runs: number } {
  for (let i = 0; i < warmup * batch; i++) {
    setup();
    fn();
  }
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    let total = 0;
    for (let i = 0; i < batch; i++) {
      setup();
      const start = performance.now();
      fn();
      total += performance.now() - start;
    }
    samples.push(total / batch);
  }
  return { median_ms: median(samples), runs: batches * batch };
}

function pipeline(c: { expression: string; values: Record<string, number> }, batches: number) {
  const t = trace(c.expression, c.values);
  return {
    expression: c.expression,
    nodes: t.nodes.length,
    parse: measure(() => parse(c.expression), batches, 20),
    trace: measure(() => trace(c.expression, c.values), batches, 20), // parse + Value forward + backward
    layout: measure(() => layout(t.nodes), batches, 20),
    timeline: measure(() => timelineOf(t), batches, 20), // layout + the timeline object
    total: measure(() => buildTimeline(c.expression, c.values), batches, 20),
  };
}

// ---- backward(): on the deepest graph the engine allows, and on a big wide graph beside a peer ----
// (The lesson's build(v) recurses, as micrograd's does; the engine never makes a graph deeper than 79.)

function wide<T>(make: (x: number) => T, mul: (a: T, b: T) => T, add: (a: T, b: T) => T): T {
  let level = Array.from({ length: SIZE }, (_, i) => mul(make((i % 7) - 3), make(0.5))); // SIZE products
  while (level.length > 1) {
    // summed pairwise: a wide graph, only ~17 levels deep
    const next: T[] = [];
    for (let i = 0; i < level.length; i += 2)
      next.push(i + 1 < level.length ? add(level[i]!, level[i + 1]!) : level[i]!);
    level = next;
  }
  return level[0]!;
}

/** micrograd's shape: a Set of children, a closure per node, and a recursive topological sort. */
class PeerValue {
  grad = 0;
  backwardStep: () => void = () => {};
  readonly prev: Set<PeerValue>;
  constructor(
    public data: number,
    children: PeerValue[] = [],
  ) {
    this.prev = new Set(children);
  }
  add(other: PeerValue): PeerValue {
    const out = new PeerValue(this.data + other.data, [this, other]);
    out.backwardStep = () => {
      this.grad += out.grad;
      other.grad += out.grad;
    };
    return out;
  }
  mul(other: PeerValue): PeerValue {
    const out = new PeerValue(this.data * other.data, [this, other]);
    out.backwardStep = () => {
      this.grad += other.data * out.grad;
      other.grad += this.data * out.grad;
    };
    return out;
  }
  backward(): void {
    const topo: PeerValue[] = [];
    const visited = new Set<PeerValue>();
    const build = (v: PeerValue): void => {
      if (visited.has(v)) return;
      visited.add(v);
      for (const child of v.prev) build(child);
      topo.push(v);
    };
    build(this);
    this.grad = 1;
    for (let i = topo.length - 1; i >= 0; i--) topo[i]!.backwardStep();
  }
}

function graphOf<T extends { grad: number }>(root: T, children: (v: T) => Iterable<T>): T[] {
  const all: T[] = [];
  const seen = new Set<T>([root]);
  const stack = [root];
  while (stack.length > 0) {
    const v = stack.pop()!;
    all.push(v);
    for (const c of children(v))
      if (!seen.has(c)) {
        seen.add(c);
        stack.push(c);
      }
  }
  return all;
}

function backwardFigure<T extends { grad: number; backward(): void }>(
  root: T,
  children: (v: T) => Iterable<T>,
  runs: number,
  batch = 1,
) {
  const all = graphOf(root, children);
  const reset = (): void => {
    for (const v of all) v.grad = 0;
  };
  try {
    reset();
    root.backward();
  } catch (error) {
    return { nodes: all.length, survived: false, error: String(error) };
  }
  return { nodes: all.length, survived: true, ...measure(() => root.backward(), runs, batch, reset, 1) };
}

const ours = {
  deepest: backwardFigure(rootOf(trace(DEEPEST, { a: 1.5 })).out, (v) => v._children, 100, 20),
  wide: backwardFigure(
    wide(
      (x) => new Value(x),
      (a, b) => a.mul(b),
      (a, b) => a.add(b),
    ),
    (v) => v._children,
    9,
  ),
};
const peer = {
  wide: backwardFigure(
    wide(
      (x) => new PeerValue(x),
      (a, b) => a.mul(b),
      (a, b) => a.add(b),
    ),
    (v) => v.prev,
    9,
  ),
};

console.log(
  JSON.stringify({
    engine: "typescript",
    runtime: `node ${process.version}`,
    unit: "ms per call, median",
    pipeline: { default: pipeline(DEFAULT, 200), forty_nodes: pipeline(FORTY, 100) },
    backward: { deepest: { expression: DEEPEST, ...ours.deepest }, wide: { products: SIZE, ...ours.wide } },
    peer: {
      name: "micrograd-style Value (a Set of children, a closure per node)",
      wide: { products: SIZE, ...peer.wide },
    },
  }),
);
