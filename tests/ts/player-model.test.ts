// The sandbox's transitions, driven as a learner drives the page: typing character by character,
// dragging through errors, switching presets mid-pulse, nudging. reduce() with the real engine.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTimeline, type Timeline } from "../../src/inference/index";
import { variablesOf } from "../../src/player/engine/live";
import { liveContext } from "./live-context";
import {
  type Action,
  type Context,
  forwardDone,
  initialState,
  isGhostOf,
  reduce,
  type SandboxState,
  valuesFor,
} from "../../src/player/model/model";
import { frameAt } from "../../src/player/model/timing";

const context: Context = liveContext(true);
const still: Context = { ...context, autoplay: false };
const start = (values: Record<string, number> = { a: 2, b: -3, c: 10 }): SandboxState =>
  initialState(buildTimeline("(a + b) * c", values), values);
const run = (state: SandboxState, actions: Action[], ctx: Context = context): SandboxState =>
  actions.reduce((s, a) => reduce(s, a, ctx), state);
const typed = (text: string): Action[] =>
  Array.from(text, (_, i) => ({ type: "edit", text: text.slice(0, i + 1) }));
const atEndOfBackward = (s: SandboxState): SandboxState =>
  run(s, [
    { type: "restart", direction: "backward" },
    { type: "seek", time: 1e9 },
  ]);
/** The gradients a learner can see at this moment (null: "--"). */
const shownGrads = (s: SandboxState): Record<string, number | null> => {
  const frame = frameAt(s.timeline, s.schedule, s.time, s.finalGradients);
  return Object.fromEntries(s.timeline.variables.map((v) => [v.name, frame.nodes.get(v.node)?.grad ?? null]));
};

test("variablesOf: the engine's order of first appearance, null when the text does not parse", () => {
  for (const text of [
    "(a + b) * c",
    "relu(w * x + v * y + b) * relu(a * c - d) + exp(e / f) * log(g + h)",
    "z ** 2 / (y + x) + z",
    "-q + 3",
  ]) {
    assert.deepEqual(
      variablesOf(text),
      buildTimeline(text, {}).variables.map((v) => v.name),
      text,
    );
  }
  assert.equal(variablesOf("log("), null);
  assert.equal(variablesOf("ab"), null);
  assert.deepEqual(variablesOf("log(a)"), ["a"]);
});

test("typing log(a) with a = −1 character by character ends with an a slider, and a = 2 draws it", () => {
  let s = run(start(), [{ type: "set-value", name: "a", value: -1 }]);
  s = run(s, [{ type: "edit", text: "" }, ...typed("log(a)")]);
  assert.equal(s.expression, "log(a)");
  assert.equal(s.error?.code, "domain");
  assert.deepEqual(s.variables, ["a"], "the sliders of the typed text");
  assert.equal(s.values.a, -1, "the value the learner set is kept");
  s = reduce(s, { type: "set-value", name: "a", value: 2 }, context);
  assert.equal(s.error, null);
  assert.equal(s.timeline.expression, "log(a)");
  assert.equal(s.timeline.nodes.find((n) => n.id === s.timeline.root)?.value, Math.log(2));
});

test("a syntax error keeps the last sliders and their values; a value error shows the typed ones", () => {
  let s = run(start(), [
    { type: "set-value", name: "b", value: 4 },
    { type: "edit", text: "(a + b) * " },
  ]);
  assert.equal(s.error?.code, "syntax");
  assert.deepEqual(s.variables, ["a", "b", "c"]);
  s = reduce(s, { type: "set-value", name: "c", value: 3 }, context);
  assert.equal(s.timeline.expression, "(a + b) * c", "the sliders drive the graph on screen meanwhile");
  assert.equal(s.timeline.nodes.find((n) => n.id === s.timeline.root)?.value, 18);
  assert.equal(s.error?.code, "syntax", "the input's error stays");
  s = reduce(s, { type: "edit", text: "x / (a - a)" }, context);
  assert.equal(s.error?.code, "domain");
  assert.deepEqual(s.variables, ["x", "a"], "a new variable gets a slider, at the engine's default");
  assert.equal(s.values.x, 1);
  assert.equal(s.values.b, 4, "values of variables out of sight are remembered");
});

test("dragging through error and graph: values keep flowing, the sliders stay the same", () => {
  let s = run(start({ a: -2, b: -3, c: 10 }), typed("log(a) + b"));
  assert.equal(s.error?.code, "domain");
  const sliders = s.variables;
  for (let i = 0; i < 35; i++) {
    const a = Number(((s.values.a ?? 0) + 0.1).toFixed(1));
    s = reduce(s, { type: "set-value", name: "a", value: a }, context);
    assert.deepEqual(s.variables, sliders, `at a = ${a}`);
    assert.equal(s.error === null, a > 0, `at a = ${a}`);
  }
  assert.equal(s.values.a, 1.5);
  assert.equal(s.timeline.expression, "log(a) + b");
});

test("the same number typed again changes nothing; another number, or the same in an error, does", () => {
  const s = atEndOfBackward(start());
  assert.equal(reduce(s, { type: "set-value", name: "b", value: -3 }, context), s, "b = −3 again");
  const other = reduce(s, { type: "set-value", name: "b", value: -2 }, context);
  assert.notEqual(other.timeline, s.timeline);
  assert.equal(other.timeline.nodes.find((n) => n.id === other.timeline.root)?.value, 0);
  // In a domain error the same value is recomputed as any other would be (the error says which value).
  const broken = run(start({ a: -2, b: -3, c: 10 }), typed("log(a) + b"));
  assert.equal(broken.error?.code, "domain");
  assert.notEqual(reduce(broken, { type: "set-value", name: "a", value: -2 }, context), broken);
});

test("forwardDone: every value shown, no gradient, paused where a backward pass starts", () => {
  const s = forwardDone(atEndOfBackward(start()));
  assert.equal(s.direction, "forward");
  assert.equal(s.time, s.schedule.duration);
  assert.ok(s.time > 0 && !s.playing);
  assert.deepEqual(shownGrads(s), { a: null, b: null, c: null });
  const frame = frameAt(s.timeline, s.schedule, s.time, s.finalGradients);
  assert.equal(frame.nodes.get(s.timeline.root)?.value, -10, "the output's value is there");
});

test("no ghost of a prefix: while the text gives no graph, the dimmed one is the last complete graph", () => {
  const values = { a: -2, b: -3 };
  let s = atEndOfBackward(initialState(buildTimeline("a + b", values), values));
  const left = s.time;
  for (const action of typed("log(a) + b")) {
    s = reduce(s, action, context);
    if (!s.error) continue;
    const text = s.expression;
    assert.ok(!(text.startsWith(s.timeline.expression) && text !== s.timeline.expression), `at ${text}`);
  }
  assert.equal(s.error?.code, "domain");
  assert.equal(s.timeline.expression, "a + b", "not the card l that the prefix l made");
  assert.deepEqual(valuesFor(s), { a: -2, b: -3 });
  assert.equal(s.direction, "backward");
  assert.equal(s.time, left, "the moment the learner left it at");
  assert.equal(s.playing, false);
  assert.deepEqual(s.variables, ["a", "b"]);
  s = reduce(s, { type: "set-value", name: "a", value: 1 }, context);
  assert.equal(s.timeline.expression, "log(a) + b", "a slider still recovers the typed graph");
  // A graph left while its pulse played comes back at its pass's end, every number on its card (walk 31:
  // dimmed mid-pulse, the carried numbers hung between the cards).
  s = { ...s, time: 1, playing: true };
  s = run(s, typed("log(a - a)"));
  assert.equal(s.error?.code, "domain");
  assert.equal(s.timeline.expression, "log(a) + b");
  assert.equal(s.time, s.schedule.duration, "the end of the pass it was playing");
  assert.equal(s.playing, false);
  // A complete graph followed by more is no ghost: it is the last graph built, with its own sliders.
  s = run(start(), typed("x * y +"));
  assert.equal(s.error?.code, "syntax");
  assert.equal(
    s.timeline.expression.trim(),
    "x * y",
    "x * y + falls back to x * y, not to the graph before typing",
  );
  assert.deepEqual(s.variables, ["x", "y"]);
  s = run(s, [
    { type: "edit", text: "x * y" },
    { type: "edit", text: "x * (y" },
  ]);
  assert.equal(s.timeline.expression, "x * y", "x * y is no prefix of x * (y");
  // A typo after the last variable: the graph on screen stays (walkthrough 16: the graph before it,
  // relu(a * b), was dimmed over a * ab).
  s = run(start(), [
    ...typed("relu(a * b)"),
    { type: "edit", text: "a * a" },
    { type: "edit", text: "a * ab" },
  ]);
  assert.equal(s.error?.code, "syntax");
  assert.equal(s.timeline.expression, "a * a");
  // Over a graph, a new expression typed from its first character: its lone first name or number is
  // no graph to fall back to (walkthroughs 18 and 19: the lone 3 of `3,5 * a`, the lone a of `a ** b`).
  for (const text of ["3,5 * a", "a ** b", "a +* b"]) {
    s = run(start(), [...typed("relu(a * b)"), ...typed(text)]);
    assert.notEqual(s.error, null, text);
    assert.equal(s.timeline.expression, "relu(a * b)", text);
  }
  // ... nor the graph an unknown function's first letter made (walkthrough 20: `relu(a * b) + f`, an f
  // slider in place of c's, under the message about foo).
  s = run(start(), typed("relu(a * b) + foo(c)"));
  assert.notEqual(s.error, null);
  assert.equal(s.timeline.expression.trim(), "relu(a * b)");
  // A lone card left on the way is no graph to fall back to either (walk 40: "a * a" erased to its
  // first a, then "3,": the lone a was dimmed, and a lone 3 left no slider and no prediction field).
  s = run(start(), typed("a * a"));
  for (const text of ["a * ", "a *", "a ", "a", "", "3", "3,"])
    s = reduce(s, { type: "edit", text }, context);
  assert.notEqual(s.error, null);
  assert.equal(s.timeline.expression, "a * a");
  assert.deepEqual(s.variables, ["a"]);
  // ... unless there is no other
  s = run(initialState(buildTimeline("a", { a: 2 }), { a: 2 }), [{ type: "edit", text: "a +" }]);
  assert.equal(s.timeline.expression, "a");
  // A name still being typed: the variable r was the start of the function relu.
  s = run(start(), typed("a * b + relu("));
  assert.notEqual(s.error, null);
  assert.equal(s.timeline.expression.trim(), "a * b", "not the variable r that the unfinished name made");
});

test("a ghost is a graph whose last name or number the text goes on writing", () => {
  assert.ok(isGhostOf("l", "log(a)"));
  assert.ok(isGhostOf("a * l", "a * lo"));
  assert.ok(isGhostOf("relu", "relu("), "a name followed by ( was a function's name");
  assert.ok(isGhostOf("a * 2", "a * 2.5"));
  assert.ok(!isGhostOf("a * b", "a * b +"), "an operator after a complete graph");
  assert.ok(!isGhostOf("a * b", "a * b "), "a space");
  assert.ok(!isGhostOf("(a + b)", "(a + b)c"), "a graph ending in a parenthesis");
  assert.ok(!isGhostOf("a * b", "a * b"), "the same text");
  assert.ok(!isGhostOf("a * b", "a * c"), "no prefix");
  // A typo that goes on writing the last variable (walkthrough 16: an older graph was dimmed instead)
  assert.ok(!isGhostOf("a * a", "a * ab"), "no name begins with ab");
  assert.ok(!isGhostOf("a - b", "a - bb"));
  assert.ok(!isGhostOf("a * 2", "a * 2b"));
  assert.ok(isGhostOf("a * e", "a * ex"), "on the way to exp");
  assert.ok(isGhostOf("a * r", "a * r("), "a name followed by (");
  assert.ok(isGhostOf("relu(a * b) + f", "relu(a * b) + foo(c)"), "a function the engine does not know");
  assert.ok(!isGhostOf("relu(a * b) + f", "relu(a * b) + fo"), "a typo, until ( says otherwise");
  // A number on its way to its exponent (review 50), but not to a call
  assert.ok(isGhostOf("a * 2", "a * 2e"));
  assert.ok(isGhostOf("a * 2", "a * 2e-"));
  assert.ok(isGhostOf("a * 2", "a * 2e-3"));
  assert.ok(isGhostOf("a * 2", "a * 2.5e3"));
  assert.ok(!isGhostOf("a * 2", "a * 2("), "a number is no function's name");
  // A decimal comma is a number on its way too (the engine then asks for 2.5)
  assert.ok(isGhostOf("a * 2", "a * 2,5"));
  // A lone name or number written on: the graph before it says more (walkthroughs 18 and 19)
  assert.ok(isGhostOf("3", "3,5 * a"));
  assert.ok(isGhostOf("a", "a ** b"));
  assert.ok(isGhostOf("a ", "a +* b"));
  assert.ok(!isGhostOf("a", "a"), "the same text");
  assert.ok(!isGhostOf("-a", "-a +"), "not a lone name");
});

test("no answer before its time: a new structure restarts the pulse at its beginning", () => {
  let s = atEndOfBackward(start());
  assert.deepEqual(shownGrads(s), { a: 10, b: 10, c: -1 });
  s = run(
    s,
    typed(" a * a").map((a) => ({ ...a, text: (a as { text: string }).text.trimStart() })),
  );
  assert.equal(s.timeline.expression, "a * a");
  assert.equal(s.time, 0);
  assert.equal(s.direction, "backward");
  assert.deepEqual(shownGrads(s), { a: null }, "exercise (c): a.grad is not shown before the wave");
  assert.equal(s.playing, true, "the wave starts again");
  const quiet = run(atEndOfBackward(start()), [{ type: "edit", text: "a * a" }], still);
  assert.equal(quiet.playing, false, "reduced motion: no autoplay");
  assert.deepEqual(shownGrads(quiet), { a: null });
});

test("same structure, new numbers: the moment is kept (dragging at the end of backward)", () => {
  let s = atEndOfBackward(start());
  s = reduce(s, { type: "set-value", name: "c", value: 4 }, context);
  assert.equal(s.time, s.schedule.duration);
  assert.deepEqual(shownGrads(s), { a: 4, b: 4, c: -1 });
  s = reduce(s, { type: "edit", text: "(a + b) * c " }, context);
  assert.equal(s.time, s.schedule.duration, "a trailing space changes nothing");
});

test("renaming a leaf or changing a literal is a new graph; spaces and redundant parentheses are not", () => {
  const base = atEndOfBackward(start());
  const renamed = reduce(base, { type: "edit", text: "(a + b) * d" }, context);
  assert.notEqual(renamed.structure, base.structure, "the cards, the table and the strip must say d");
  assert.deepEqual(
    renamed.timeline.nodes.filter((n) => n.op === "var").map((n) => n.label),
    ["a", "b", "d"],
  );
  const literal = (text: string): SandboxState => reduce(start(), { type: "edit", text }, context);
  assert.notEqual(literal("(a + b) * 2").structure, literal("(a + b) * 3").structure);
  const spaced = reduce(base, { type: "edit", text: "((a+b))*c" }, context);
  assert.equal(spaced.structure, base.structure);
  assert.equal(spaced.time, base.time, "the moment is kept");
});

test("a preset always restarts, even mid-pulse and even when it is the graph already on screen", () => {
  const preset = { label: "twice", expression: "a * a", values: { a: 2 } };
  let s = run(start(), [
    { type: "restart", direction: "backward" },
    { type: "seek", time: 2.5 },
  ]);
  s = reduce(s, { type: "preset", preset }, context);
  assert.equal(s.time, 0);
  assert.equal(s.timeline.expression, "a * a");
  s = run(s, [
    { type: "seek", time: 1e9 },
    { type: "preset", preset },
  ]);
  assert.equal(s.time, 0);
  assert.deepEqual(shownGrads(s), { a: null });
});

test("nudge: cleared by any change, refuses h = 0, warns when rounding eats Δoutput", () => {
  let s = atEndOfBackward(start());
  s = reduce(s, { type: "nudge", leaf: "a", step: "0.001" }, context);
  assert.ok(s.nudge && "result" in s.nudge && s.nudge.result.ok);
  assert.equal(s.nudge.result.rounding, false);
  for (const change of [
    { type: "set-value", name: "b", value: 1 },
    { type: "edit", text: "(a - b) / c" },
    { type: "preset", preset: { label: "p", expression: "a * b", values: { a: 1, b: 2 } } },
  ] as Action[]) {
    assert.equal(reduce(s, change, context).nudge, null, change.type);
  }
  const zero = reduce(s, { type: "nudge", leaf: "a", step: "0" }, context);
  assert.deepEqual(zero.nudge, { leaf: "a", problem: "h-zero" });
  // No number, or one too large for a float (walkthrough 29: "1e400" was told to be a number).
  for (const step of ["abc", "1e400"])
    assert.deepEqual(reduce(s, { type: "nudge", leaf: "a", step }, context).nudge, {
      leaf: "a",
      problem: "h-invalid",
    });
  const tiny = reduce(s, { type: "nudge", leaf: "a", step: "1e-12" }, context);
  assert.ok(tiny.nudge && "result" in tiny.nudge && tiny.nudge.result.ok && tiny.nudge.result.rounding);
  const comma = reduce(s, { type: "nudge", leaf: "c", step: "0,5" }, context);
  assert.ok(comma.nudge && "h" in comma.nudge && comma.nudge.h === 0.5);
  // Read as a prediction is (review 59: "1/1000" was told it is no number).
  for (const [step, h] of [
    ["1/1000", 0.001],
    ["(−0.5)", -0.5],
  ] as const) {
    const read = reduce(s, { type: "nudge", leaf: "c", step }, context).nudge;
    assert.ok(read && "h" in read && read.h === h, step);
  }
});

test("a shared moment opens exactly: expression, values, direction, time, options", () => {
  const s = reduce(
    start(),
    {
      type: "moment",
      moment: {
        expression: "a * b",
        values: { a: 3, b: -2 },
        direction: "backward",
        time: 2,
        finalGradients: true,
      },
    },
    context,
  );
  assert.equal(s.timeline.expression, "a * b");
  assert.deepEqual(valuesFor(s), { a: 3, b: -2 });
  assert.equal(s.direction, "backward");
  assert.equal(s.time, 2);
  assert.equal(s.playing, false);
  assert.equal(s.finalGradients, true);
  // ...and the toggles it does not name are off, whatever the learner had ticked (walkthrough 20: an
  // exercise's link opened with the final gradients, its answers, on the cards).
  const ticked = reduce(s, { type: "option", name: "localDerivatives", on: true }, context);
  const opened = reduce(ticked, { type: "moment", moment: { values: {}, direction: "forward" } }, context);
  assert.equal(ticked.localDerivatives, true);
  assert.equal(opened.localDerivatives, false);
  assert.equal(opened.finalGradients, false);
  // A moment written mid-pulse plays on from there (walkthrough 19), unless motion is reduced or the
  // pulse is over.
  const playing = { expression: "a * b", values: {}, direction: "backward", time: 2, playing: true } as const;
  const on = reduce(start(), { type: "moment", moment: playing }, context);
  assert.equal(on.time, 2);
  assert.equal(on.playing, true);
  assert.equal(reduce(start(), { type: "moment", moment: playing }, still).playing, false);
  const over = reduce(start(), { type: "moment", moment: { ...playing, time: 99 } }, context);
  assert.equal(over.playing, false);
});

test("every transition keeps finite numbers and a timeline that matches its structure", () => {
  const texts = ["", "(", "a +", "1 / a", "a ** b", "exp(exp(exp(a)))", "foo(a)", "a".repeat(3), "log(0)"];
  let s = start();
  for (const text of texts) {
    s = reduce(s, { type: "edit", text }, context);
    const t: Timeline = s.timeline;
    assert.ok(
      t.nodes.every((n) => Number.isFinite(n.value) && Number.isFinite(n.grad)),
      text,
    );
    assert.ok(s.time >= 0 && s.time <= s.schedule.duration);
  }
});
