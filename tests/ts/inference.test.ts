// The shared corpus (tests/vectors/corpus.json, written by the Python engine with `make corpus`) in
// node: a quick regression check of the TypeScript engine without Python. The full proof that both
// engines agree, bit for bit, is tests/test_equivalence.py (it probes this engine from inside and
// replays the last-bit differences of exp, log and a general **); here only the cases that use none
// of those must print Python's bytes as computed.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { buildTimeline, dumps, TinyDagError, type Timeline } from "../../src/inference/index";
import {
  addPlaceholders,
  assignColumns,
  countCrossings,
  layout,
  orderRows,
} from "../../src/inference/layout";
import { trace } from "../../src/inference/trace";

type Libm = [op: string, exponent: number | null, input: number, value: number, local: number];

interface Case {
  name: string;
  expression: string;
  values: Record<string, number | string>; // "inf", "-inf", "nan" stand for what JSON cannot hold
  libm: Libm[]; // every exp, log and ** Python computed: [op, exponent, input, value, local]
  expected: Timeline | { error: unknown };
}

// Bundled tests run from .build/, so the corpus is found from the repository root (the cwd of npm test).
const cases = JSON.parse(readFileSync(join(process.cwd(), "tests/vectors/corpus.json"), "utf8")) as Case[];

/** Whole and half exponents are computed by *, / and sqrt (power()): the same bits in every language. */
const exact = ([op, exponent]: Libm): boolean =>
  op === "**" && exponent !== null && Number.isInteger(2 * exponent) && Math.abs(exponent) <= 16;

function valuesOf(c: Case): Record<string, number> {
  const special: Record<string, number> = { inf: Infinity, "-inf": -Infinity, nan: NaN };
  return Object.fromEntries(
    Object.entries(c.values).map(([k, v]) => [k, typeof v === "number" ? v : special[v]!]),
  );
}

function run(c: Case): string {
  try {
    return dumps(buildTimeline(c.expression, valuesOf(c)));
  } catch (error) {
    if (!(error instanceof TinyDagError)) throw error;
    return dumps(error.toJSON());
  }
}

test("the corpus covers every error code and a few hundred cases", () => {
  const codes = new Set(
    cases.map((c) => ("error" in c.expected ? (c.expected.error as { code: string }).code : "ok")),
  );
  assert.deepEqual([...codes].sort(), [
    "domain",
    "ok",
    "overflow",
    "syntax",
    "too-large",
    "unknown-function",
    "variable-exponent",
  ]);
  assert.ok(cases.length >= 300, `${cases.length} cases`);
});

test("corpus cases without exp, log or a general **: Python's bytes, as computed", (t) => {
  const portable = cases.filter((c) => c.libm.every(exact));
  for (const c of portable)
    assert.equal(run(c), dumps(c.expected), `${c.name}: ${JSON.stringify(c.expression)}`);
  assert.ok(portable.length >= 200, `${portable.length} cases`);
  t.diagnostic(
    `${portable.length} of ${cases.length} cases compared here; all of them in tests/test_equivalence.py`,
  );
});

test("the layered layout: ten products summed run wide, each product beside its own leaves, no crossing", () => {
  const t = buildTimeline("relu(a*b + c*d + e*f + g*h + k*m + n*p + q*r + s*t + u*v + w*x)", {});
  const node = new Map(t.nodes.map((n) => [n.label, n]));
  for (const [left, right] of ["ab", "cd", "ef", "gh", "km", "np", "qr", "st", "uv", "wx"]) {
    const [product, a, b] = [node.get(`${left}*${right}`)!, node.get(left!)!, node.get(right!)!];
    assert.equal(a.column, product.column - 1);
    assert.equal(b.column, product.column - 1);
    assert.equal(b.row, a.row + 1, "the leaves in the expression's order");
    assert.ok(b.y - 0.75 <= product.y && product.y <= a.y + 0.75, `${product.label} level with its leaves`);
  }
  const columns = 1 + Math.max(...t.nodes.map((n) => n.column));
  assert.equal(columns, 12);
  for (let c = 0; c < columns; c++) assert.ok(t.nodes.filter((n) => n.column === c).length <= 4);
  const nodes = trace(t.expression, {}).nodes;
  const column = assignColumns(nodes);
  const [ordered, children, parents] = addPlaceholders(nodes, column);
  orderRows(ordered, children, parents);
  assert.equal(countCrossings(ordered, parents), 0);
});

test("a text traced again is the same text: its numbers anew, its errors every time", () => {
  const big = Array.from("abcdefghijklmnopqrstu").join(" + "); // 41 nodes: over the limit
  const tooLarge = () => trace(big, {});
  for (let i = 0; i < 2; i++) assert.throws(tooLarge, (e: TinyDagError) => e.code === "too-large");
  const text = "(a + b) * c";
  const first = buildTimeline(text, { a: 1, b: 2, c: 3 });
  for (let i = 0; i < 9; i++) buildTimeline(`a * ${i}`, { a: 2 }); // more texts than are kept
  assert.equal(dumps(buildTimeline(text, { a: 1, b: 2, c: 3 })), dumps(first));
  const moved = buildTimeline(text, { a: 4, b: 2, c: 3 });
  assert.deepEqual(
    moved.nodes.map((n) => n.value),
    [4, 2, 6, 3, 18],
  );
  assert.throws(
    () => trace("a * (b", {}),
    (e: TinyDagError) => e.code === "syntax",
  );
  assert.throws(
    () => trace("a * (b", {}),
    (e: TinyDagError) => e.code === "syntax",
  );
});

test("the layout of a graph laid out before is its own again, whatever came between or was changed", () => {
  const where = (t: Timeline) =>
    t.nodes.map(({ id, column, row, x, y, z }) => ({ id, column, row, x, y, z }));
  const first = where(buildTimeline("(a + b) * c + a * a", { a: 1, b: 2, c: 3 }));
  const other = where(buildTimeline("(a + b) * c + b / a", { a: 1, b: 2, c: 3 })); // same size, other edges
  assert.notDeepEqual(other, first);
  for (let i = 0; i < 2; i++) layout(trace("(a + b) * c + a * a", {}).nodes).clear(); // reaches no later caller
  assert.deepEqual(where(buildTimeline("(a + b) * c + a * a", { a: -4, b: 0.5, c: 9 })), first);
  assert.deepEqual(where(buildTimeline("(a + b) * c + b / a", { a: 7, b: 2, c: 3 })), other);
});
