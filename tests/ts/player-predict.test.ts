// Predict, then check (verdict.ts): a prediction read as the learner types it in en, ru and et,
// judged against the engine's gradient, and a wrong one explained by its chain-rule paths.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTimeline, type Timeline } from "../../src/inference/index";
import { formatNumber } from "../../src/player/model/format";
import { makeI18n } from "../../src/player/shared/i18n";
import {
  chainPaths,
  explainGradient,
  explanationText,
  gradientsDue,
  judge,
  judgeAll,
  eitherWay,
  readPrediction,
  verdictWaits,
} from "../../src/player/model/verdict";
import { frameAt, scheduleOf } from "../../src/player/model/timing";

const explain = (t: Timeline, leaf: string, i18n: ReturnType<typeof makeI18n>): string =>
  explanationText(explainGradient(t, leaf, i18n, "7"));
import { strings } from "./strings-file";

const MINUS = "\u2212";
const LANGS = ["en", "ru", "et"] as const;
const EXERCISE_A = buildTimeline("(a + b) * c", { a: 1, b: 4, c: -2 });

const read = (text: string, lang = "en"): number | string => {
  const r = readPrediction(text, lang);
  return r.ok ? r.value : r.problem;
};
const leaf = (t: Timeline, name: string): string => t.variables.find((v) => v.name === name)!.node;

test("a prediction is read the way the learner's language writes numbers", () => {
  for (const lang of LANGS) {
    assert.equal(read("-2", lang), -2);
    assert.equal(read(`${MINUS}2`, lang), -2, "a typographic minus, as the page writes it");
    assert.equal(read(" +3 ", lang), 3);
    assert.equal(read("0.5", lang), 0.5, "a dot, as the cards write it");
    assert.equal(read("0,5", lang), 0.5, "a decimal comma");
    assert.equal(read(`${MINUS}0,25`, lang), -0.25);
    assert.equal(read("1e-3", lang), 0.001);
    assert.equal(read("1/3", lang), 1 / 3, "a fraction");
    assert.equal(read(`(${MINUS}2)`, lang), -2, "a factor as the explanations write it");
    assert.equal(read("", lang), "empty");
    assert.equal(read("   ", lang), "empty");
    for (const bad of ["abc", "1/0", "1/2/3", "--2", "1,2,3", "2x", "NaN", "Infinity", ".", "1e"])
      assert.equal(read(bad, lang), "not-a-number", `${lang}: ${bad}`);
  }
  assert.equal(read("1 000,5", "ru"), 1000.5, "ru groups digits with a space");
  assert.equal(read("1\u00a0000,5", "et"), 1000.5, "... or a no-break space");
  assert.equal(read("1,000,000", "en"), 1e6, "English thousands groups");
  assert.equal(read("12,345.5", "en"), 12345.5);
  // One group and no point: 2.718 or 2718? Neither, in English (walkthrough 31); a decimal comma in
  // Russian and Estonian.
  for (const either of ["2,718", "1,000", `${MINUS}1,500`, "(2,718)"])
    assert.equal(read(either, "en"), "not-a-number", either);
  assert.equal(read("1,000", "ru"), 1, "a decimal comma in Russian");
  assert.equal(read("2,718", "et"), 2718 / 1000);
  assert.deepEqual(eitherWay("2,718", "en"), ["2.718", "2718"]);
  assert.deepEqual(eitherWay(` ${MINUS}1,500 `, "en"), [`${MINUS}1.500`, `${MINUS}1500`]);
  for (const [text, lang] of [
    ["2,718", "ru"],
    ["2,71", "en"],
    ["1,2,3", "en"],
    ["2,7x8", "en"],
    ["7", "en"],
  ])
    assert.equal(eitherWay(text!, lang!), null, `${lang}: ${text}`);
  // No group starts with 0: "0,125" is a decimal comma in English too (review tr59: it was 125).
  assert.equal(read("0,125", "en"), 0.125);
  assert.equal(read("-0,125", "en"), -0.125);
  assert.equal(read("1,000.5", "ru"), "not-a-number", "a comma and a dot: ambiguous outside English");
  // Spaces between digits group thousands, nothing else (review 59: "2 3" was 23).
  assert.equal(read("12 345 678", "ru"), 12345678);
  assert.equal(read("1'000", "en"), 1000);
  assert.equal(read(`${MINUS} 2 / 3`, "en"), -2 / 3, "spaces around signs and the slash");
  for (const bad of ["2 3", "1 00", "1 0000", "12 34,5", "1e3 000"])
    assert.equal(read(bad, "ru"), "not-a-number", bad);
});

test("right within a relative 1e-6 of the gradient, or equal to it as the cards round it", () => {
  assert.equal(judge(-2, -2), "right");
  assert.equal(judge(-2.000001, -2), "right");
  assert.equal(judge(-2.00001, -2), "right", "the card shows −2 for both");
  assert.equal(judge(-2.001, -2), "wrong");
  assert.equal(judge(2, -2), "wrong", "the sign matters");
  assert.equal(judge(0, 0), "right");
  assert.equal(judge(1e-9, 0), "wrong", "nothing is close to 0 relatively");
  assert.equal(judge(0.3333, 1 / 3), "right", "as the card shows it");
  assert.equal(formatNumber(2 / 3), "0.6667");
  assert.equal(judge(0.6667, 2 / 3), "right");
  assert.equal(judge(0.667, 2 / 3), "wrong", "fewer digits than the card shows is not the card's number");
  assert.equal(judge(1.235e5, 123456), "right");
  assert.equal(judge(0.1 + 0.2, 0.3), "right");
});

test("the exercise's gradients come from the paths' products of local derivatives", () => {
  const a = chainPaths(EXERCISE_A, leaf(EXERCISE_A, "a"));
  assert.equal(a.total, 1);
  assert.deepEqual(a.paths[0]!.locals, [1, -2]);
  assert.equal(a.paths[0]!.product, -2);
  const c = chainPaths(EXERCISE_A, leaf(EXERCISE_A, "c"));
  assert.deepEqual(c.paths[0]!.locals, [5], "c's local derivative is the value of a + b");
  const square = buildTimeline("a * a", { a: 2 });
  const twice = chainPaths(square, leaf(square, "a"));
  assert.equal(twice.total, 2, "a used twice: two edges, two paths");
  assert.equal(
    twice.paths.reduce((s, p) => s + p.product, 0),
    square.nodes.find((n) => n.op === "var")!.grad,
  );
  // Every path sum is the engine's gradient, for expressions with shared leaves and derived operations.
  for (const [expression, values] of [
    ["(a - b) / c", { a: 2, b: -3, c: 4 }],
    ["relu(a * b) + a * exp(b)", { a: 1.5, b: -0.5 }],
    ["log(a * a + b) ** 2", { a: 3, b: 1 }],
  ] as const) {
    const t = buildTimeline(expression, values);
    for (const v of t.variables) {
      const all = chainPaths(t, v.node, 1000);
      const sum = all.paths.reduce((s, p) => s + p.product, 0);
      const grad = t.nodes.find((n) => n.id === v.node)!.grad;
      assert.ok(
        Math.abs(sum - grad) <= 1e-9 * Math.max(1, Math.abs(grad)),
        `${expression}: ${v.name} ${sum} vs ${grad}`,
      );
    }
  }
});

test("many paths: the first ones are listed, the rest counted", () => {
  const t = buildTimeline("((a * a) * (a * a)) * ((a * a) * (a * a))", { a: 1 });
  const all = chainPaths(t, leaf(t, "a"), 3);
  assert.equal(all.total, 8);
  assert.equal(all.paths.length, 3);
  const i18n = makeI18n("en", strings("en"));
  const text = explain(t, leaf(t, "a"), i18n);
  assert.match(text, /From a, 8 paths lead to the output/);
  assert.match(text, /and 5 more paths/);
});

test("a wrong prediction is explained by the path, in every language, numbers the language's way", () => {
  const en = explain(EXERCISE_A, leaf(EXERCISE_A, "a"), makeI18n("en", strings("en")));
  assert.ok(en.includes(`a → (a + b) → (a + b) × c: 1 × (${MINUS}2) × 1 = ${MINUS}2`), en);
  assert.ok(en.startsWith(`Not quite: a.grad = ${MINUS}2, not 7.`), en);
  const t = buildTimeline("a * b", { a: 0.5, b: 1.5 });
  for (const lang of LANGS) {
    const i18n = makeI18n(lang, strings(lang));
    for (const name of ["a", "b"]) {
      const text = explain(t, leaf(t, name), i18n);
      assert.doesNotMatch(text, /\{[a-z_]+\}|NaN|undefined/, `${lang}: ${text}`);
      if (lang !== "en") assert.ok(!/\d\.\d/.test(text), `${lang}: a decimal dot in a sentence: ${text}`);
    }
    const square = buildTimeline("a * a", { a: 2 });
    const both = explain(square, leaf(square, "a"), i18n);
    assert.ok(both.includes("2 + 2 = 4"), `${lang}: += adds the two paths: ${both}`);
    const edges = explainGradient(square, leaf(square, "a"), i18n, "7").lines.slice(0, 2);
    assert.notEqual(edges[0], edges[1], `${lang}: the two paths through a × a are told apart by their edges`);
  }
  assert.ok(explain(t, leaf(t, "a"), makeI18n("ru", strings("ru"))).includes("a → a × b: 1,5 × 1 = 1,5"));
  const square = buildTimeline("a * a", { a: 3 });
  assert.deepEqual(explainGradient(square, leaf(square, "a"), makeI18n("en", strings("en")), "7").lines, [
    "a → a × a (edge 1): 3 × 1 = 3",
    "a → a × a (edge 2): 3 × 1 = 3",
    "together: 3 + 3 = 6",
  ]);
});

test("rounded factors that do not multiply out say ≈", () => {
  const t = buildTimeline("exp(a) * b", { a: 1, b: 0.1488 });
  const why = explainGradient(t, leaf(t, "a"), makeI18n("en", strings("en")), "7");
  assert.equal(why.lines.length, 1, "one path, on a line of its own");
  const path = why.lines[0]!.split(": ")[1]!;
  const [left, right] = path.split(/ [=≈] /);
  const product = left!
    .split(" × ")
    .map((f) => Number(f.replace(/[()]/g, "").replace(MINUS, "-")))
    .reduce((p, x) => p * x, 1);
  const sign = path.includes(" = ") ? "=" : "≈";
  assert.equal(sign === "=", formatNumber(product) === formatNumber(Number(right)), path);
});

test("Check decided: an unreadable field stops the judging and is the only one answered; else each is judged", () => {
  const en = makeI18n("en", strings("en"));
  // Exercise (a) at a = 1, b = 4, c = −2: a.grad = b.grad = −2, c.grad = 5. Typed into a, b, c:
  const check = (...texts: string[]) =>
    judgeAll(
      texts.map((text, i) => ({ name: "abc"[i]!, text })),
      EXERCISE_A,
      en,
    );
  const unread = check("-2", "two", "");
  assert.equal(unread.judged, false);
  assert.deepEqual(
    unread.answers.map((a) => a?.kind ?? null),
    [null, "unreadable", "unreadable"],
  );
  assert.match(unread.answers[1]!.lead, /“two”/);
  assert.match(unread.summary, /^Some fields need a number/);
  // An English "2,718" is asked about, in words once per language's strings (only English reads it so).
  assert.equal(
    check("-2", "2,718", "5").answers[1]!.lead,
    "b.grad: is “2,718” 2.718 or 2718? Type one of the two.",
  );
  const judged = check("−2", "2", "5");
  assert.equal(judged.judged, true);
  assert.deepEqual(
    judged.answers.map((a) => a?.kind),
    ["right", "wrong", "right"],
  );
  assert.equal(judged.answers[1]!.lead, explainGradient(EXERCISE_A, leaf(EXERCISE_A, "b"), en, "2").lead);
  // The learner's number beside the right one (walk 38: "Not quite: c.grad = 5." read as their 5 judged).
  assert.ok(
    judged.answers[1]!.lead.startsWith(`Not quite: b.grad = ${MINUS}2, not 2.`),
    judged.answers[1]!.lead,
  );
  const ru = judgeAll(
    [
      { name: "a", text: "-2" },
      { name: "b", text: "0,5" },
      { name: "c", text: "5" },
    ],
    EXERCISE_A,
    makeI18n("ru", strings("ru")),
  );
  assert.ok(ru.answers[1]!.lead.startsWith(`Неверно: b.grad = ${MINUS}2, а не 0,5.`), ru.answers[1]!.lead);
  const et = judgeAll([{ name: "b", text: "10,5" }], EXERCISE_A, makeI18n("et", strings("et")));
  assert.ok(et.answers[0]!.lead.startsWith(`Vale: b.grad = ${MINUS}2, mitte 10,5.`), et.answers[0]!.lead);
  // The tally alone: until the last verdict shows, the outcome's line says what they wait for (answers.ts).
  assert.equal(judged.summary, "2 of 3 right.");
});

test("a verdict waits until its leaf's card shows its whole gradient, never in the forward pass", () => {
  for (const [expression, values] of [
    ["(a + b) * c", { a: 1, b: 4, c: -2 }],
    ["a * a + b", { a: 3, b: 1 }], // a's gradient comes in two hand-offs of 3
    ["a", { a: 2 }], // the leaf is the output: the seed is its gradient
    ["a * b + a", { a: 2, b: 5 }],
  ] as const) {
    const timeline = buildTimeline(expression, values);
    const due = gradientsDue(timeline);
    const schedule = scheduleOf(timeline, "backward");
    for (const { name, node } of timeline.variables) {
      const whole = timeline.nodes.find((n) => n.id === node)!.grad;
      // Every landing moment of the pass: the verdict shows exactly when the card has the whole gradient.
      for (let completed = 0; completed <= schedule.duration; completed += 1) {
        const frame = frameAt(timeline, schedule, completed);
        assert.equal(frame.completed, completed);
        const onCard = frame.nodes.get(node)!.grad;
        const backward = { direction: "backward", finalGradients: false } as const;
        assert.equal(
          verdictWaits(backward, completed, due.get(node)!),
          onCard !== whole,
          `${expression} ${name} ${completed}`,
        );
      }
    }
    const last = Math.max(...timeline.variables.map((v) => due.get(v.node)!));
    assert.ok(last <= schedule.duration, expression);
    assert.equal(verdictWaits({ direction: "forward", finalGradients: false }, 99, 1), true, "forward: none");
    assert.equal(verdictWaits({ direction: "forward", finalGradients: true }, 0, 9), false, "final: all");
    assert.equal(verdictWaits({ direction: "backward", finalGradients: true }, 0, 9), false);
  }
  // a * a + b: a's card says 3 after its first hand-off; the verdict still waits
  const aa = buildTimeline("a * a + b", { a: 3, b: 1 });
  const a = leaf(aa, "a");
  const schedule = scheduleOf(aa, "backward");
  const halfway = [...Array(schedule.duration + 1).keys()].find(
    (k) => frameAt(aa, schedule, k).nodes.get(a)!.grad === 3,
  );
  assert.ok(
    halfway !== undefined &&
      verdictWaits({ direction: "backward", finalGradients: false }, halfway, gradientsDue(aa).get(a)!),
  );
});

test("a wrong answer's paths name long nodes as the caption does, elided, and the output last", () => {
  const en = makeI18n("en", strings("en"));
  const big = buildTimeline("(a*b + c*d + e*f + g*h) / (a + b + c + d) + log(exp(a) + b*b) * relu(c - d)", {
    a: 2,
    b: -3,
    c: 10,
    d: 1,
  });
  const { lines } = explainGradient(big, leaf(big, "a"), en, "7");
  const paths = lines.filter((line) => line.includes(" → "));
  assert.equal(paths.length, 3);
  for (const path of paths) {
    const nodes = path.slice(0, path.lastIndexOf(": ")).split(" → ");
    assert.equal(nodes[0], "a");
    // Each node at most the caption's 24 characters and its parentheses (walkthrough 23: whole
    // expressions made 25 lines on a phone); the small exercise keeps its names whole.
    for (const node of nodes) assert.ok(Array.from(node).length <= 26, node);
    assert.ok(
      nodes.some((node) => node.includes("…")),
      path,
    );
  }
  assert.match(explain(EXERCISE_A, leaf(EXERCISE_A, "b"), en), /b → \(a \+ b\) → \(a \+ b\) × c: /);
});
