// The node half of tests/test_equivalence.py: one long-lived process answering JSON lines, so that
// pytest can probe the TypeScript engine from inside without starting a process per case.
//   {"op": "timeline", "expression": str, "values": {name: float64 bits as 16 hex digits}}
//     -> {"json": the timeline or error exactly as dumps() prints it, "graph": the Value graph or null,
//         "libm": every exp, log and ** computed, as [op, exponent, input, value, local derivative]}
//   {"op": "repr", "floats": [bits, ...]} -> {"reprs": [Python's repr of each float]}
//   {"op": "frameworks", "timeline": Python's timeline JSON} -> {"scripts": scripts() of it, or null}
//   {"op": "cli", "argv": [str, ...]} -> {"code": exit code, "stdout": str, "stderr": str}
//   {"op": "ops"} -> {"ops": the table of operations (src/inference/ops.ts), row by row}
// Answers are written with dumps() too, so -0.0 survives the trip (JSON.stringify would print 0).
import { createInterface } from "node:readline";
import { main } from "../../src/inference/cli";
import { TinyDagError } from "../../src/inference/errors";
import { scripts } from "../../src/inference/frameworks";
import { OPS } from "../../src/inference/ops";
import { dumps, formatFloat, timelineOf } from "../../src/inference/timeline";
import { trace, type VisualNode } from "../../src/inference/trace";
import type { Timeline } from "../../src/inference/types";
import { Value } from "../../src/inference/value";

type Request =
  | { op: "timeline"; expression: string; values: Record<string, string> }
  | { op: "repr"; floats: string[] }
  | { op: "frameworks"; timeline: string }
  | { op: "cli"; argv: string[] }
  | { op: "ops" };

const fromBits = (hex: string): number => {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
};

/** Every Value in topological order: its numbers, its children as indices, its visual node. */
function graphOf(topo: readonly Value[], nodes: readonly VisualNode[]): object[] {
  const index = new Map(topo.map((v, i) => [v, i]));
  const owner = new Map<Value, string>();
  for (const n of nodes) for (const p of n.primitives) owner.set(p, n.id);
  return topo.map((v) => ({
    data: v.data,
    grad: v.grad,
    children: v._children.map((c) => index.get(c)),
    local: [...v._local_grads],
    owner: owner.get(v),
  }));
}

// Record, without changing them, the results of the three operations where V8 and glibc may round
// differently; pytest replays them in Python when the bytes differ.
let libm: [string, number | null, number, number, number][] = [];
const record = (op: string, exponent: number | null, input: Value, out: Value): Value => {
  libm.push([op, exponent, input.data, out.data, out._local_grads[0]!]);
  return out;
};
const { exp, log, pow } = Value.prototype;
Value.prototype.exp = function (this: Value) {
  return record("exp", null, this, exp.call(this));
};
Value.prototype.log = function (this: Value) {
  return record("log", null, this, log.call(this));
};
Value.prototype.pow = function (this: Value, p: number) {
  return record("**", p, this, pow.call(this, p));
};

function answer(request: Request): object {
  switch (request.op) {
    case "timeline": {
      const values = Object.fromEntries(Object.entries(request.values).map(([k, v]) => [k, fromBits(v)]));
      libm = [];
      try {
        const t = trace(request.expression, values);
        return { json: dumps(timelineOf(t)), graph: graphOf(t.topo, t.nodes), libm: finite(libm) };
      } catch (error) {
        if (!(error instanceof TinyDagError)) throw error;
        return { json: dumps(error.toJSON()), graph: null, libm: finite(libm) };
      }
    }
    case "repr":
      return { reprs: request.floats.map((b) => formatFloat(fromBits(b))) };
    case "frameworks":
      return { scripts: scripts(JSON.parse(request.timeline) as Timeline) };
    case "ops":
      return { ops: OPS };
    case "cli": {
      let stdout = "";
      let stderr = "";
      const code = main(
        request.argv,
        (t) => {
          stdout += t;
        },
        (t) => {
          stderr += t;
        },
      );
      return { code, stdout, stderr };
    }
  }
}

// JSON holds no Infinity; where we overflowed, Python raised OverflowError and needs no replay.
const finite = (ops: typeof libm) => ops.filter((op) => op.slice(2).every((x) => Number.isFinite(x)));

const INT_KEYS = new Set(["children", "code"]);
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let reply: object;
  try {
    reply = answer(JSON.parse(line) as Request);
  } catch (error) {
    reply = { crash: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  process.stdout.write(`${dumps(reply, INT_KEYS)}\n`);
}
