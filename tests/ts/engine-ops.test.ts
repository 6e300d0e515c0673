// The table of operations (src/inference/ops.ts) against everything that must know each operation:
// the parser and the engine build its example with the right root, inputs and derivative; the frameworks
// panel names a call; the cards draw its glyph and say how its value was made; every language names it
// (and lists a call among the functions it knows); the code listing has its line. A fake operation
// fails every one of these checks it can reach, and an incomplete table does not compile.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { scripts } from "../../src/inference/frameworks";
import { buildTimeline, type Op, type Timeline } from "../../src/inference/index";
import { ATOM, FUNCTIONS, OPS, type OpSpec } from "../../src/inference/ops";
import { madeText } from "../../src/player/model/arithmetic";
import { glyphOf } from "../../src/player/teaching/expansion";
import { strings } from "./strings-file";

const LANGS = ["en", "ru", "et"] as const;
const LISTING = readFileSync(join(process.cwd(), "src/microgpt_annotated.py"), "utf8");
const AT = { a: 0.7, b: -1.3 }; // away from relu's kink and log's edge

/** f's slope in `name` by a central difference (h scaled to the value). */
function slope(example: string, name: "a" | "b"): number {
  const h = 1e-6;
  const at = (x: number): number => {
    const t = buildTimeline(example, { ...AT, [name]: x });
    return t.nodes.find((n) => n.id === t.root)!.value;
  };
  return (at(AT[name] + h) - at(AT[name] - h)) / (2 * h);
}

/** Everything that keeps `op`'s row from working end to end; [] for a complete row. */
function rowProblems(op: string, spec: OpSpec): string[] {
  const problems: string[] = [];
  for (const lang of LANGS) {
    const words = strings(lang);
    if (!(spec.words in words)) problems.push(`no ${spec.words} in ${lang}.yml`);
    for (const key of ["expression_help", "error_unknown_function"])
      if (spec.shape === "call" && !words[key]?.includes(op))
        problems.push(`${lang}.yml's ${key} does not list ${op}`);
  }
  if (spec.code !== null && !LISTING.includes(spec.code))
    problems.push(`no line "${spec.code}" in the listing`);
  if ((spec.code === null) !== (spec.shape === "leaf")) problems.push("only a leaf has no line of code");
  let t: Timeline;
  try {
    t = buildTimeline(spec.example, AT);
  } catch (error) {
    return [...problems, `its example ${spec.example} does not build: ${(error as Error).message}`];
  }
  const root = t.nodes.find((n) => n.id === t.root)!;
  if (root.op !== op) return [...problems, `the root of ${spec.example} is ${root.op}`];
  if (root.inputs.length !== spec.arity) problems.push(`${root.inputs.length} inputs, not ${spec.arity}`);
  if (Boolean(root.derived) !== spec.derived) problems.push(`derived is ${Boolean(root.derived)}`);
  if (spec.shape !== "leaf" && glyphOf(root) !== spec.glyph) problems.push(`the card shows ${glyphOf(root)}`);
  const made = madeText(root, t);
  if (spec.shape !== "leaf" && !made?.includes(spec.glyph)) problems.push(`its card says ${made}`);
  for (const v of t.variables) {
    const name = v.name as "a" | "b";
    const grad = t.nodes.find((n) => n.id === v.node)!.grad;
    const numeric = slope(spec.example, name);
    if (Math.abs(grad - numeric) > 1e-6 * (1 + Math.abs(numeric)))
      problems.push(`d/d${name} is ${grad}, the slope is ${numeric}`);
  }
  const written = scripts(t);
  for (const [framework, name] of Object.entries(spec.frameworks ?? {}))
    if (!written?.[framework as "pytorch" | "jax"].includes(`${name}(`))
      problems.push(`${framework} has no ${name}`);
  return problems;
}

test("every operation's row works end to end: parser, engine, derivative, cards, words, listing, frameworks", () => {
  for (const [op, spec] of Object.entries(OPS)) assert.deepEqual(rowProblems(op, spec), [], op);
  assert.deepEqual(FUNCTIONS, ["relu", "exp", "log"]); // the calls, in the order messages list them
});

test("a fake operation added to the table alone fails wherever it is missing", () => {
  const tanh: OpSpec = {
    arity: 1,
    shape: "call",
    glyph: "tanh",
    level: ATOM,
    derived: false,
    code: "math.tanh(self.data)",
    words: "card_op_tanh",
    frameworks: { pytorch: "torch.tanh", jax: "jnp.tanh" },
    example: "tanh(a)",
  };
  const problems = rowProblems("tanh", tanh);
  for (const lang of LANGS) {
    assert.ok(problems.includes(`no card_op_tanh in ${lang}.yml`), lang);
    assert.ok(problems.includes(`${lang}.yml's expression_help does not list tanh`), lang);
    assert.ok(problems.includes(`${lang}.yml's error_unknown_function does not list tanh`), lang);
  }
  assert.ok(problems.includes('no line "math.tanh(self.data)" in the listing'));
  assert.ok(
    problems.some((p) => p.startsWith("its example tanh(a) does not build: There is no function 'tanh'")),
  );
  // A row that names a real operation but gets it wrong fails too: the engine disagrees with it.
  const wrong = rowProblems("*", { ...OPS["*"], arity: 1, derived: true, glyph: "·" });
  assert.deepEqual(wrong, [
    "2 inputs, not 1",
    "derived is false",
    "the card shows ×",
    "its card says 0.7 × (−1.3) = −0.91",
  ]);
});

test("an incomplete table does not compile", () => {
  // @ts-expect-error: a table without a row for an operation Op has is not a table of every operation
  const missing: Record<Op | "tanh", OpSpec> = OPS;
  // @ts-expect-error: a row without the strings key that names it is not a row
  const partial: OpSpec = { ...OPS.exp, words: undefined };
  assert.ok(missing && partial); // (tsc checks the two lines above; here they only need to be used)
});
