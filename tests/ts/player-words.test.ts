// What the player says in words: card titles (never a repeated operation, never a cut term), edge
// products that multiply out, the node table's operations, and error messages that name their place
// inside the sentence, quote only a short excerpt and name invisible characters by code point.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTimeline, type ErrorPayload, type Timeline } from "../../src/inference/index";
import { asPayload } from "../../src/player/engine/live";
import { fullLabel, glyphOf, titleOf } from "../../src/player/teaching/expansion";
import {
  formatNumber,
  operand,
  parseNumber,
  productParts,
  productText,
  proseNumber,
} from "../../src/player/model/format";
import { codePoint, errorMessage, isInvisible, makeI18n } from "../../src/player/shared/i18n";
import { captionOf, describeEvent, shownStep } from "../../src/player/controls/narration";
import { codeStepOf, operationOf } from "../../src/player/controls/panels";
import { frameAt, scheduleOf } from "../../src/player/model/timing";
import { strings } from "./strings-file";

const LANGS = ["en", "ru", "et"] as const;

const node = (t: Timeline, label: string) => {
  const found = t.nodes.find((n) => n.label === label);
  assert.ok(found, `no node ${label}`);
  return found;
};

function failure(expression: string, values: Record<string, number> = {}): ErrorPayload {
  try {
    buildTimeline(expression, values);
  } catch (thrown) {
    const payload = asPayload(thrown);
    if (payload) return payload;
  }
  throw new Error(`${expression} should fail`);
}

// ---- card titles ---------------------------------------------------------------------------------

test("titles never repeat the operation: a function shows its argument, ** its base", () => {
  const t = buildTimeline("log(exp(a) + b ** 2)", { a: 1, b: 2 });
  assert.equal(titleOf(node(t, "exp(a)"), t, 20), "(a)");
  assert.equal(titleOf(node(t, "log(exp(a) + b ** 2)"), t, 40), "(exp(a) + b ** 2)");
  assert.equal(titleOf(node(t, "b ** 2"), t, 20), "b", "the exponent is on the badge");
  assert.equal(titleOf(node(t, "exp(a) + b ** 2"), t, 40), "exp(a) + b ** 2");
  const n = buildTimeline("-(a + b) * -c", {});
  assert.equal(glyphOf(node(n, "-(a + b)")), "−");
  assert.equal(titleOf(node(n, "-(a + b)"), n, 20), "(a + b)");
  assert.equal(titleOf(node(n, "-c"), n, 20), "c");
});

test("a long title closes up products, then gives way whole operands, deepest first, never a cut term", () => {
  const t = buildTimeline("relu(w * x + v * y + b)", {});
  const relu = node(t, "relu(w * x + v * y + b)");
  assert.equal(titleOf(relu, t, 30), "(w × x + v × y + b)");
  assert.equal(titleOf(relu, t, 15), "(w×x + v×y + b)", "products close up before anything is left out");
  assert.equal(titleOf(relu, t, 13), "(w×x + … + b)");
  assert.equal(titleOf(relu, t, 12), "(… + … + b)");
  assert.equal(titleOf(relu, t, 8), "(… + b)");
  assert.equal(titleOf(relu, t, 5), null, "(…) says nothing: no title, the tooltip has it all");
  const sum = node(t, "w * x + v * y");
  assert.equal(titleOf(sum, t, 12), "w×x + v×y");
  assert.equal(titleOf(sum, t, 8), "w×x + …");
  const d = buildTimeline("(a - b) / c", {});
  assert.equal(titleOf(node(d, "(a - b) / c"), d, 8), "(…) / c");
  for (let budget = 0; budget < 30; budget++) {
    for (const n of t.nodes) {
      const title = titleOf(n, t, budget);
      if (title === null) continue;
      assert.ok(Array.from(title).length <= budget, `${title} fits ${budget}`);
      assert.doesNotMatch(title, /[+×−/]\s*\)?$|^\(?\s*[+×/]/, `${title}: no dangling operator`);
      assert.ok(
        !title.startsWith(glyphOf(n)) || n.op === "+" || n.op === "*",
        `${title} repeats ${glyphOf(n)}`,
      );
    }
  }
});

test("leaves have no title: the glyph is the variable's name or the number", () => {
  const t = buildTimeline("1 / a", { a: 2 });
  const one = t.nodes.find((n) => n.op === "const")!;
  assert.equal(glyphOf(one), "1");
  assert.equal(titleOf(one, t, 20), null);
});

// ---- products on edge labels and in narration -------------------------------------------------------

/** Do the shown factors multiply to the shown result, within the result's last digit? */
function addsUp(text: string): boolean {
  // A negative second factor is in parentheses, as every number after an operator: "1 × (−1)".
  const m = /^(\S+) × (\(−\S+\)|[^\s(−]\S*) ([=≈]) (\S+)$/.exec(text);
  assert.ok(m, text);
  const product = parseNumber(m[1]!) * parseNumber(m[2]!.replace(/^\((.*)\)$/, "$1"));
  return m[3] === "≈" || formatNumber(product) === m[4];
}

test("shown factors multiply to the shown contribution, or the label says ≈", () => {
  const e = Math.exp(1);
  // The card's digits (its grad reads 0.1488), and "≈" where they do not multiply out exactly.
  assert.equal(productText(0.14884, e, 0.14884 * e), "0.1488 × 2.718 ≈ 0.4046");
  assert.equal(productText(1, -1, -1), "1 × (−1) = −1");
  assert.equal(productText(0.5, 2, 1), "0.5 × 2 = 1");
  let seed = 7;
  const random = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  for (let i = 0; i < 5000; i++) {
    const a = random() * 10 ** Math.round(random() * 6);
    const b = random() * 10 ** Math.round(random() * 6);
    const label = productText(a, b, a * b);
    assert.ok(addsUp(label), label);
    assert.ok(label.includes("=") || label.includes("≈"));
  }
});

test("a number after an operator is in parentheses when negative or in a sentence's scientific form", () => {
  assert.equal(operand("3"), "3");
  assert.equal(operand(formatNumber(-0.5)), "(−0.5)");
  assert.equal(operand(formatNumber(-1.2e-5)), "(−1.2e−5)");
  assert.equal(operand(proseNumber(1.2e-5, "ru")), "(1,2\u00a0×\u00a010⁻⁵)"); // review 54: "× 1,2 × 10⁻⁵"
  assert.equal(operand(proseNumber(0.5, "et")), "0,5");
});

test("a product's middle factor is found for the mark Local derivatives puts on it, in labels and legends", () => {
  assert.deepEqual(productParts(productText(1, -1, -1)), ["1 × ", "(−1)", " = −1"]);
  const e = Math.exp(1);
  assert.equal(productParts(productText(0.14884, e, 0.14884 * e))[1], "2.718");
  assert.deepEqual(productParts("2.5e−7 × 3 ≈ 7.5e−7"), ["2.5e−7 × ", "3", " ≈ 7.5e−7"]);
  for (const text of ["−10", "∂ = 3", "× 10", ""]) assert.deepEqual(productParts(text), [text, "", ""]);
  // Each language's legend: the words for the local derivative, between × and =.
  const local = { en: "local derivative", ru: "локальная производная", et: "lokaalne tuletis" };
  for (const lang of LANGS) assert.equal(productParts(strings(lang).edge_label_legend!)[1], local[lang]);
});

test("every backward step of the presets adds up as labelled", () => {
  for (const [expression, values] of [
    ["(a + b) * c", { a: 2, b: -3, c: 10 }],
    ["log(exp(a) + b ** 2)", { a: 1, b: 2 }],
    ["relu(w * x + v * y + b)", { w: 0.5, x: 2, v: -1, y: 0.5, b: 0.25 }],
    ["(a - b) / c", { a: 5, b: 2, c: 4 }],
    ["1 / (1 + exp(-a))", { a: 0.7 }],
  ] as const) {
    const t = buildTimeline(expression, values);
    for (const s of t.backward)
      assert.ok(addsUp(productText(s.incoming, s.local, s.contribution)), expression);
  }
});

test("a dead ReLU's step says why nothing passes it, in every language", () => {
  const t = buildTimeline("relu(a * b)", { a: -1, b: 2 });
  const step = t.backward.find((s) => s.local === 0)!;
  const said = (lang: string) => describeEvent({ kind: "handoff", step }, t, makeI18n(lang, strings(lang)));
  assert.equal(
    said("en"),
    "(a × b) receives 1 × 0 = 0: the ReLU's input is not positive, so its local derivative is 0: a dead path",
  );
  assert.match(said("ru"), /вход ReLU не положителен, производная ReLU — 0, путь мёртв$/);
  assert.match(said("et"), /ReLU sisend pole positiivne, ReLU lokaalne tuletis on 0, tee on surnud$/);
  // Past the ReLU the zero travels on, and each step says why nothing arrives (a learner who drags
  // into a dead ReLU lands on the last step, not on the ReLU's).
  const after = t.backward.find((s) => s.child === "n0")!;
  const past = (lang: string) =>
    describeEvent({ kind: "handoff", step: after }, t, makeI18n(lang, strings(lang)));
  assert.equal(past("en"), "a receives 0 × 2 = 0: nothing comes back through the dead ReLU; a.grad is now 0");
  assert.match(past("ru"), /через мёртвый ReLU назад ничего не проходит; теперь a\.grad = 0$/);
  assert.match(past("et"), /surnud ReLU kaudu ei tule tagasi midagi; nüüd a\.grad = 0$/);
  // A zero with a live path to the output is not blamed on a dead ReLU elsewhere in the graph.
  const other = buildTimeline("(relu(a) + b) * c", { a: -1, b: 1, c: 0 });
  const toB = other.backward.find((s) => s.child === other.variables[1]!.node)!;
  assert.equal(
    describeEvent({ kind: "handoff", step: toB }, other, makeI18n("en", strings("en"))),
    "b receives 0 × 1 = 0; b.grad is now 0",
  );
});

test("a number typed in the expression is named in brackets, so its grad does not read as a number", () => {
  // walkthrough 24: "0.5 receives −1 × 1 = −1; 0.5.grad is now −1"
  const t = buildTimeline("a * 0.5", { a: 2 });
  const step = t.backward.find((s) => t.nodes.find((n) => n.id === s.child)?.op === "const")!;
  const said = (lang: string) => describeEvent({ kind: "handoff", step }, t, makeI18n(lang, strings(lang)));
  assert.equal(said("en"), "(0.5) receives 1 × 2 = 2; (0.5).grad is now 2");
  // (a name is the expression's text, as typed: "0.5", where the sentence's numbers are "0,5")
  assert.equal(said("ru"), "(0.5) получает 1 × 2 = 2; теперь (0.5).grad = 2");
  const toA = t.backward.find((s) => s.child === t.variables[0]!.node)!;
  assert.equal(
    describeEvent({ kind: "handoff", step: toA }, t, makeI18n("en", strings("en"))),
    "a receives 1 × 0.5 = 0.5; a.grad is now 0.5",
    "a variable keeps its bare name",
  );
});

test("narration says the same product as the label, in every language", () => {
  const t = buildTimeline("log(exp(a) + b ** 2)", { a: 0.14, b: 2 });
  const step = t.backward.find((s) => s.local === 4)!; // 0.19416… × 4: 0.1942 × 4 is not 0.7767
  for (const lang of LANGS) {
    const said = describeEvent({ kind: "handoff", step }, t, makeI18n(lang, strings(lang)));
    const product = lang === "en" ? "0.1942 × 4 ≈ 0.7767" : "0,1942 × 4 ≈ 0,7767"; // a sentence: the language's decimal separator
    assert.ok(said.includes(product), `${lang}: ${said}`);
  }
  const e = buildTimeline("log(exp(a) + b ** 2)", { a: 1, b: 2 });
  const toA = e.backward.find((s) => s.child === "n0")!;
  assert.match(
    describeEvent({ kind: "handoff", step: toA }, e, makeI18n("en", strings("en"))),
    /^a receives 0\.1488 × 2\.718 ≈ 0\.4046;/,
  );
});

test("the caption says each step: forward shows how a value is made, backward the += (every language)", () => {
  const t = buildTimeline("(a + b) * c", { a: 2, b: -3, c: 0.5 });
  const forward = scheduleOf(t, "forward");
  const said = (lang: string, time: number, timeline = t, schedule = forward) => {
    const i18n = makeI18n(lang, strings(lang));
    const frame = frameAt(timeline, schedule, time);
    return captionOf(schedule, shownStep(timeline, schedule, frame, i18n), i18n);
  };
  assert.equal(said("en", 1), "Step 1 of 2 · a + b = 2 + (−3) = −1");
  // While the second pulse travels (to the card it lights), the caption already names its step.
  assert.equal(said("en", 1.4), "Step 2 of 2 · (a + b) × c = −1 × 0.5 = −0.5");
  assert.equal(frameAt(t, forward, 1.4).completed, 1, "it has not landed yet");
  // Backward, in flight the caption says what the bubble carries; "c.grad is now" waits for the card.
  const backward = scheduleOf(t, "backward");
  const c = t.nodes.find((n) => n.label === "c")!.id;
  const k = backward.events.findIndex((e) => e.kind === "handoff" && e.step.child === c);
  assert.equal(frameAt(t, backward, k + 0.4).completed, k, "in flight");
  const flying = {
    en: "c receives 1 × (−1) = −1",
    ru: "c получает 1 × (−1) = −1",
    et: "c saab 1 × (−1) = −1",
  };
  const landed = { en: "; c.grad is now −1", ru: "; теперь c.grad = −1", et: "; nüüd c.grad = −1" };
  for (const lang of ["en", "ru", "et"] as const) {
    const step = said(lang, k + 0.4, t, backward);
    assert.ok(step.endsWith(` · ${flying[lang]}`), `${lang}: ${step}`);
    assert.ok(said(lang, k + 1, t, backward).endsWith(` · ${flying[lang]}${landed[lang]}`), lang);
  }
  assert.equal(said("ru", 2), "Шаг 2 из 2 · (a + b) × c = −1 × 0,5 = −0,5");
  assert.equal(said("et", 2), "Samm 2/2 · (a + b) × c = −1 × 0,5 = −0,5");
  assert.match(said("en", 0), /^Forward pass, 2 steps: press Play/);
  assert.match(said("ru", 0), /^Прямой проход, 2 шага: нажмите «Пуск»/);
  assert.match(said("et", 0), /^Edasisuunaline läbimine, 2 sammu: vajuta „Esita“/);
  // An operation on numbers alone is said once: "2 × 3 = 6", not "2 × 3 = 2 × 3 = 6".
  const numbers = buildTimeline("2 * 3", {});
  assert.equal(said("en", 1, numbers, scheduleOf(numbers, "forward")), "Step 1 of 1 · 2 × 3 = 6");
  // A lone leaf has nothing to compute forward, and the caption says so (not "0 steps: press Play").
  const leaf = buildTimeline("a", { a: 2 });
  const none = scheduleOf(leaf, "forward");
  assert.equal(none.duration, 0);
  assert.match(said("en", 0, leaf, none), /^Nothing to compute: the graph is a single leaf/);
  assert.match(said("ru", 0, leaf, none), /^Вычислять нечего/);
  assert.match(said("et", 0, leaf, none), /^Arvutada pole midagi/);
  // Under an error the graph is dimmed, and the caption names it (shortened) instead of a step of it.
  const dimmed = (lang: string, expression: string) =>
    captionOf(forward, null, makeI18n(lang, strings(lang)), expression);
  // (It says which graph, not that the text has an error: while it is typed, its message waits for a
  // pause, walk 39.)
  assert.equal(dimmed("en", "(a + b) * c"), "Dimmed: an earlier graph, “(a + b) * c”.");
  assert.equal(dimmed("ru", "a"), "Бледным показан прежний граф: «a».");
  assert.equal(dimmed("et", "a"), "Tuhmilt on näha varasem graaf: „a“.");
  assert.match(dimmed("en", "a * b + c * d + e * f + g * h"), /“a \* b \+ c \* d \+ e…”\.$/);
  const one = buildTimeline("relu(a)", { a: 1 });
  const en = makeI18n("en", strings("en"));
  assert.match(
    en.t("caption_start_forward", { total: scheduleOf(one, "forward").duration, play: "Play" }),
    /1 step:/,
  );
  // Walkthrough 28: with reduced motion a pass holds its start a second while it plays, and the caption
  // said "press Play" beside Pause. Playing, the start says the pass without the invitation.
  const starts = {
    en: "Backward pass, 3 steps: ",
    ru: "Обратный проход, 3 шага: ",
    et: "Tagasisuunaline läbimine, 3 sammu: ",
  };
  for (const lang of ["en", "ru", "et"] as const) {
    const i18n = makeI18n(lang, strings(lang));
    const pass = scheduleOf(buildTimeline("a * a", { a: 3 }), "backward");
    const paused = captionOf(pass, null, i18n);
    const playing = captionOf(pass, null, i18n, null, false, true);
    assert.ok(paused.startsWith(starts[lang]) && paused.includes(i18n.t("play")), paused);
    assert.ok(playing.startsWith(starts[lang]) && !playing.includes(i18n.t("play")), playing);
  }
  const square = buildTimeline("a * a", { a: 3 });
  const back = scheduleOf(square, "backward");
  const lastStep = back.events[back.events.length - 1]!;
  assert.equal(
    en.t("caption_step", {
      step: back.duration,
      total: back.duration,
      event: describeEvent(lastStep, square, en),
    }),
    "Step 3 of 3 · a receives 1 × 3 = 3; += adds it to what a already had: a.grad = 3 + 3 = 6",
  );
});

test("a long expression is said the short way its card writes it, so a step keeps its numbers", () => {
  const forty =
    "relu(a * b + c * d - e / f) * exp(g - h) + log(a * a + 1) ** 2 - (b - c) / (d + 2)" +
    " + relu(-e * f) * (g + h * 0.5) - exp(-a) * b";
  const values = { a: 1, b: 2, c: 0.5, d: 1, e: 1, f: 2, g: 1, h: 1 };
  const t = buildTimeline(forty, values);
  const long = t.nodes.map((n) => fullLabel(n)).filter((label) => Array.from(label).length > 24);
  assert.ok(long.length > 5);
  for (const direction of ["forward", "backward"] as const) {
    const events = scheduleOf(t, direction).events;
    for (const lang of LANGS) {
      const i18n = makeI18n(lang, strings(lang));
      for (const said of events.map((e) => describeEvent(e, t, i18n))) {
        // No expression of more than 24 characters is spelt out: the step's numbers come early.
        assert.ok(!long.some((label) => said.includes(label)), `${lang}: ${said}`);
        if (direction === "backward" && !said.includes("grad 1")) assert.ok(said.search(/ [=≈] /) < 64, said);
      }
    }
  }
  const en = makeI18n("en", strings("en"));
  assert.equal(
    describeEvent(scheduleOf(t, "backward").events[0]!, t, en),
    "… − … + …×(…) − exp(…)×b starts with grad 1: the output's sensitivity to itself",
  );
  // A short expression is said whole, as before.
  const small = buildTimeline("(a + b) * c", { a: 2, b: -3, c: 10 });
  const steps = scheduleOf(small, "backward").events.map((e) => describeEvent(e, small, en));
  assert.equal(steps[1], "(a + b) receives 1 × 10 = 10; (a + b).grad is now 10");
});

// ---- node table ------------------------------------------------------------------------------------

test("the table names operations as the cards show them, words translated", () => {
  const t = buildTimeline("-(a * 2) / b ** 3 - c", {});
  const ops = (lang: string) => t.nodes.map((n) => operationOf(n, makeI18n(lang, strings(lang))));
  assert.deepEqual(ops("en"), [
    "variable a",
    "constant 2",
    "×",
    "− (negation)",
    "variable b",
    "** 3",
    "÷",
    "variable c",
    "−",
  ]);
  assert.deepEqual(ops("ru").slice(0, 4), ["переменная a", "константа 2", "×", "− (смена знака)"]);
  assert.deepEqual(ops("et").slice(0, 4), ["muutuja a", "konstant 2", "×", "− (märgivahetus)"]);
  for (const lang of LANGS) for (const op of ops(lang)) assert.doesNotMatch(op, /^(var|const|neg|\*)$/);
});

// ---- error messages --------------------------------------------------------------------------------

test("the place of an error is inside its sentence, in every language", () => {
  const cases: [string, Record<string, number>, string][] = [
    ["a ** b", {}, "b"],
    ["a / (b - b)", { b: 3 }, "(b - b)"],
    ["log(a)", { a: -1 }, "log(a)"],
    ["(a + b", {}, "(a + b"],
    ["b + log(a", {}, "log(a"], // the parenthesis with the function it opens
    ["a + b)", {}, "a + b)"],
    ["a +", {}, "a +"],
    ["a b", {}, "b"],
    ["exp(a)", { a: 1000 }, "exp(a)"],
  ];
  for (const lang of LANGS) {
    const i18n = makeI18n(lang, strings(lang));
    for (const [expression, values, place] of cases) {
      const message = errorMessage(i18n, failure(expression, values), expression);
      assert.ok(message.includes(place), `${lang}: ${message} names ${place}`);
      const quoted = message.indexOf(place);
      assert.ok(
        /[.!?]/.test(message.slice(quoted + place.length)),
        `${lang}: ${message}: the place is before the full stop`,
      );
      assert.doesNotMatch(message, /\{[a-z_]+\}/, `${lang}: ${message}`);
    }
  }
});

test("division by zero: the engine's span and the message name the divisor only", () => {
  const error = failure("a / (b - b)", { b: 3 });
  assert.deepEqual([error.start, error.end], [4, 11]);
  assert.equal(
    errorMessage(makeI18n("en", strings("en")), error, "a / (b - b)"),
    "Division by zero: the divisor “(b - b)” is 0.",
  );
});

test("an empty call and a typed 0 as divisor get their own reasons, in every language", () => {
  const words = {
    en: ["“relu” needs an input inside its parentheses, like relu(x).", "nothing can be divided by 0"],
    ru: ["Функции «relu» нужен аргумент в скобках, например relu(x).", "на 0 делить нельзя"],
    et: ["„relu“ vajab sulgude vahele sisendit, näiteks relu(x).", "0-ga jagada ei saa"],
  };
  const empty = failure("a * relu()");
  assert.deepEqual([empty.start, empty.end], [8, 10], "the empty parentheses are marked");
  for (const lang of LANGS) {
    const i18n = makeI18n(lang, strings(lang));
    const [call = "", zero = ""] = words[lang];
    assert.equal(errorMessage(i18n, empty, "a * relu()"), call);
    for (const typed of ["a / 0", "a / (0)", "a / 0.0", "b / -0", "b / \u22120", "a / 0e5"])
      assert.ok(errorMessage(i18n, failure(typed), typed).includes(zero), `${lang}: ${typed}`);
    // A number too small for a double is 0 to the engine, but the reader typed no 0 (review 58)
    assert.ok(errorMessage(i18n, failure("a / 1e-400"), "a / 1e-400").includes("1e-400"), lang);
    const computed = errorMessage(i18n, failure("a / (b - b)", { b: 3 }), "a / (b - b)");
    assert.ok(computed.includes("(b - b)") && !computed.includes(zero), `${lang}: ${computed}`);
  }
});

test("long expressions are quoted as a short excerpt", () => {
  const long = `a${" + a".repeat(60)}`;
  const big = `${Array.from("abcdefghijklmnopqrstu").join(" + ")} * 2 * 3 * 4`;
  for (const lang of LANGS) {
    const i18n = makeI18n(lang, strings(lang));
    for (const expression of [long, big, `(${"a + ".repeat(30)}a`]) {
      const message = errorMessage(i18n, failure(expression), expression);
      const quoted = /[“«„]([^”»“]*)[”»“]/.exec(message)?.[1] ?? "";
      assert.ok(Array.from(quoted).length <= 21, `${lang}: ${message}`);
      assert.ok(message.length < 160, `${lang}: ${message}`);
    }
  }
});

test("invisible characters are named by code point, in every language", () => {
  assert.equal(codePoint("\u200b"), "U+200B");
  assert.ok(isInvisible("\u200b") && isInvisible("\u00a0") && isInvisible("\u0301") && !isInvisible("$"));
  for (const lang of LANGS) {
    const i18n = makeI18n(lang, strings(lang));
    const zwsp = errorMessage(i18n, failure("a +\u200b b"), "a +\u200b b");
    assert.ok(zwsp.includes("U+200B"), `${lang}: ${zwsp}`);
    assert.ok(!zwsp.includes("\u200b"), `${lang}: the invisible character itself is not quoted`);
    // A visible letter of another script (a Cyrillic one has words of its own: player-i18n.test.ts)
    const greek = errorMessage(i18n, failure("\u03b1 + b"), "\u03b1 + b");
    assert.ok(greek.includes("U+03B1") && greek.includes("\u03b1"), `${lang}: ${greek}`);
    assert.ok(!errorMessage(i18n, failure("a $ b"), "a $ b").includes("U+"), "ASCII needs no code point");
  }
});

test("a decimal comma in the expression gets the hint to write a point, in every language", () => {
  const hints = { en: "“3.5”, not “3,5”", ru: "«3.5», а не «3,5»", et: "„3.5“, mitte „3,5“" };
  for (const lang of LANGS) {
    const i18n = makeI18n(lang, strings(lang));
    const message = errorMessage(i18n, failure("3,5 * a"), "3,5 * a");
    assert.ok(message.includes(hints[lang]), `${lang}: ${message}`);
    assert.ok(errorMessage(i18n, failure("a * 12,75"), "a * 12,75").includes("12.75"), lang);
    const refused = i18n.t("error_syntax_character", { char: "," });
    assert.equal(
      errorMessage(i18n, failure("a,b"), "a,b"),
      refused,
      `${lang}: between letters, only refused`,
    );
  }
});

test("a caret typed for a power says how powers are written, in each language", () => {
  const said = (lang: string, source: string): string =>
    errorMessage(makeI18n(lang, strings(lang)), failure(source), source);
  assert.equal(said("en", "a ^ 2"), "“^” is not a power here: powers are written with **, as in a ** 2.");
  assert.match(said("ru", "a ^ 2"), /^«\^» здесь не означает степень: .*\*\*, например a \*\* 2\.$/);
  assert.match(said("et", "a ^ 2"), /^„\^“ ei tähista siin astet: .*\*\*, näiteks a \*\* 2\.$/);
  // Another character keeps its own words
  assert.equal(said("en", "a # 2"), "The character “#” is not allowed here.");
});

test("a Cyrillic letter says whose letter it is, and the Latin one it looks like (walk 41)", () => {
  const said = (lang: string, source: string): string =>
    errorMessage(makeI18n(lang, strings(lang)), failure(source), source);
  // A Russian keyboard's а and с, which look just like the lesson's a and c
  assert.equal(
    said("en", "(а + b) * c"),
    "“а” is a Cyrillic letter that looks like the Latin “a”: switch the keyboard to Latin letters and type a.",
  );
  assert.equal(
    said("ru", "(a + b) * с"),
    "«с» — буква кириллицы, хотя выглядит как латинская «c»: переключите раскладку на латиницу и наберите c.",
  );
  assert.match(
    said("et", "Р * a"),
    /^„Р“ on kirillitsa täht, mis näeb välja nagu ladina „P“: .* kirjuta P\.$/,
  );
  // One that looks like no Latin letter
  assert.equal(
    said("ru", "ж * a"),
    "«ж» — буква кириллицы, а имена пишутся латинскими буквами (a–z, A–Z): переключите раскладку на латиницу.",
  );
  assert.match(said("en", "ж * a"), /^“ж” is a Cyrillic letter: names are written in Latin letters/);
  assert.match(said("et", "ж * a"), /^„ж“ on kirillitsa täht, nimed kirjutatakse aga ladina tähtedega/);
  // Another script's letter keeps the code point's words
  assert.equal(said("en", "α * a"), "The character “α” (U+03B1) is not allowed here.");
});

test("without the expression at hand a message still reads whole", () => {
  const en = makeI18n("en", strings("en"));
  assert.equal(errorMessage(en, failure("a / b", { b: 0 })), "Division by zero: the divisor “…” is 0.");
});

test("a brief caption tells a sum of more than two terms by its tail; two terms stay whole", () => {
  // a * a * a: a's grad is the sum of three contributions; a * a: of two (exercise (c))
  const three = buildTimeline("a * a * a", { a: 2 });
  const two = buildTimeline("a * a", { a: 3 });
  const en = makeI18n("en", strings("en"));
  const last = (timeline: Timeline, brief: boolean) => {
    const schedule = scheduleOf(timeline, "backward");
    const shown = shownStep(timeline, schedule, frameAt(timeline, schedule, schedule.duration), en);
    return captionOf(schedule, shown, en, null, brief);
  };
  assert.match(last(three, false), /a\.grad = 4 \+ 4 \+ 4 = 12$/);
  assert.match(last(three, true), /a\.grad = … \+ 4 = 12$/);
  assert.match(last(two, true), /a\.grad = 3 \+ 3 = 6$/, "exercise (c)'s two paths stay whole");
});

test("the running line keeps a short name on one line and lets a long one break", () => {
  const en = makeI18n("en", strings("en"));
  const at = (t: Timeline, k: number) => {
    const schedule = scheduleOf(t, "backward");
    return codeStepOf(t, schedule, frameAt(t, schedule, k + 0.5), en).text;
  };
  const short = buildTimeline("(a + b) * c", { a: 2, b: -3, c: 10 });
  // Walkthrough 31: on a phone "child = a +" ended one line and "b" began the next; walk 32: "child ="
  // then the name on the next.
  const nb = "\u00a0";
  assert.equal(
    at(short, 1),
    `backward(): v${nb}=${nb}(a${nb}+${nb}b)${nb}×${nb}c, child${nb}=${nb}a${nb}+${nb}b`,
  );
  const long = buildTimeline("a * b + c * d + e * f + g * h", {});
  const v = "a × b + c × d + e × f + g × h";
  assert.equal(at(long, 1), `backward(): v${nb}=${nb}${v}, child${nb}=${nb}a × b + c × d + e × f`);
});
