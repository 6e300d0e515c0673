// The player's pure logic: number format, i18n, timing (frame = f(timeline, time)), state
// transitions, URL state, expansion text and narration. No DOM, no WebGL.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTimeline, TinyDagError, type Timeline } from "../../src/inference/index";
import { expansionOf, localsOf, nameOf } from "../../src/player/teaching/expansion";
import { formatNumber, parseNumber } from "../../src/player/model/format";
import { errorKey, errorMessage, fill, makeI18n } from "../../src/player/shared/i18n";
import {
  advance,
  COMPACT_LINGER,
  SANDBOX_LINGER,
  COMPACT_PACE,
  initialState,
  restart,
  seek,
  sliderRange,
  step,
  structureKey,
  togglePlay,
  withTimeline,
} from "../../src/player/model/model";
import { clampView, rotate, VIEW_LIMITS } from "../../src/player/model/view";
import { describeEvent } from "../../src/player/controls/narration";
import { frameAt, scheduleOf, stepTime, TRAVEL } from "../../src/player/model/timing";
import { decodeMoment, encodeMoment, withTask } from "../../src/player/page/url";
import { withPredictions } from "../../src/player/page/translations";
import { asPayload, recompute } from "../../src/player/engine/live";
import { atTypingEnd } from "../../src/player/controls/errorview";
import { fitSlider, type Slider } from "../../src/player/controls/sliders";
import { nudgeCheck } from "../../src/player/model/nudge";
import { contrast, hueDistance, parseColor, withContrast } from "../../src/player/stage/colors";
import { strings } from "./strings-file";

const tl = (expression: string, values: Record<string, number> = {}): Timeline =>
  buildTimeline(expression, values);
const DEFAULT = tl("(a + b) * c", { a: 2, b: -3, c: 10 });

test("numbers: at most 4 significant digits, typographic minus, never -0", () => {
  assert.equal(formatNumber(10), "10");
  assert.equal(formatNumber(-1), "\u22121");
  assert.equal(formatNumber(-0), "0");
  assert.equal(formatNumber(1 / 3), "0.3333");
  assert.equal(formatNumber(-0.1875), "\u22120.1875");
  assert.equal(formatNumber(Math.E), "2.718");
  assert.equal(formatNumber(123456), "1.235e5");
  assert.equal(formatNumber(0.000123456), "1.235e\u22124"); // walk 31: the minus the fields and the sign use
  assert.equal(formatNumber(-1e-12), "\u22121e\u221212");
  assert.equal(formatNumber(9999.6), "1e4");
  assert.equal(parseNumber("\u22123"), -3);
  assert.equal(parseNumber("0,5"), 0.5);
  assert.ok(Number.isNaN(parseNumber("1+1")));
});

test("i18n: placeholders, one message per error code and reason, in every language", () => {
  assert.equal(fill("{a} and {b}", { a: 1 }), "1 and {b}");
  const en = strings("en");
  const keys = Object.keys(en).sort();
  for (const lang of ["ru", "et"]) assert.deepEqual(Object.keys(strings(lang)).sort(), keys, lang);
  for (const key of ["value", "grad", "figure_caption", "no_webgl", "derived", "const"])
    assert.ok(key in en, key);
  const cases: [string, Record<string, number>][] = [
    ["a ** b", {}],
    ["sin(x)", {}],
    ["(a+b", {}],
    ["a $ b", {}],
    ["a +", {}],
    ["2 3", {}],
    ["relu", {}],
    ["ab", {}],
    ["lo", {}],
    ["", {}],
    ["a)", {}],
    ["log(a)", { a: -1 }],
    ["a / b", { b: 0 }],
    ["a ** -1", { a: 0 }],
    ["a ** 0.5", { a: 0 }],
    ["a ** 0.5", { a: -1 }],
    ["exp(a)", { a: 1000 }],
    ["a".repeat(1) + " + a".repeat(120), {}],
    [Array.from({ length: 41 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(" * 2 + "), {}],
  ];
  for (const lang of ["en", "ru", "et"]) {
    const i18n = makeI18n(lang, strings(lang));
    for (const [expression, values] of cases) {
      let error: ReturnType<typeof asPayload> | undefined;
      try {
        buildTimeline(expression, values);
      } catch (thrown) {
        error = asPayload(thrown);
      }
      assert.ok(error, `${expression} should fail`);
      const key = errorKey(error);
      assert.ok(i18n.has(key), `${lang}: no string ${key} for ${expression}`);
      const message = errorMessage(i18n, error);
      assert.doesNotMatch(message, /\{[a-z_]+\}/, `${lang}: unfilled placeholder in ${message}`);
    }
  }
});

test("two letters that begin a function's name say the function may be on its way (walk 37)", () => {
  const said = (lang: string, expression: string): string => {
    try {
      buildTimeline(expression, {});
    } catch (thrown) {
      return errorMessage(makeI18n(lang, strings(lang)), asPayload(thrown)!, expression);
    }
    return "";
  };
  // Typing log, "lo" said only to put * between letters: the learner meant a function.
  assert.match(
    said("en", "lo"),
    /^“lo” is not a variable .* to call log, finish its name, for example log\(x\)/,
  );
  assert.match(said("ru", "a + ex"), /^«ex» — не переменная .* чтобы вызвать exp, допишите/);
  assert.match(said("et", "rel * a"), /^„rel“ pole muutuja .* funktsiooni relu kasutamiseks/);
  assert.match(said("en", "ab"), /^“ab”: variables are single letters; put \* between them/);
});

test("too-large: the engine's params.reason picks the message; the span is only a fallback", () => {
  const en = makeI18n("en", strings("en"));
  const caught = (expression: string): ReturnType<typeof asPayload> => {
    try {
      buildTimeline(expression, {});
    } catch (thrown) {
      return asPayload(thrown);
    }
    return null;
  };
  const long = caught(`a${" + a".repeat(120)}`)!;
  const big = caught(`${"a+".repeat(41)}a`)!; // 83 characters, 42 nodes
  assert.equal(long.params.reason, "characters");
  assert.equal(big.params.reason, "nodes");
  assert.equal(errorKey(long), "error_too_large_characters");
  assert.equal(errorKey(big), "error_too_large_nodes");
  assert.match(
    errorMessage(en, big),
    /^This expression makes 42 nodes; at most 40 keep the graph readable\./,
  );
  // The reason wins over the span, whatever the span says.
  assert.equal(
    errorKey({ code: "too-large", params: { reason: "nodes" }, start: 200 }),
    "error_too_large_nodes",
  );
  assert.equal(
    errorKey({ code: "too-large", params: { reason: "characters" }, start: 0 }),
    "error_too_large_characters",
  );
  // Without a reason (an older engine), the span still tells the two apart.
  assert.equal(errorKey({ code: "too-large", params: {}, start: 200 }), "error_too_large_characters");
  assert.equal(errorKey({ code: "too-large", params: {}, start: 0 }), "error_too_large_nodes");
  // An unknown reason falls back to the code's general message.
  assert.equal(
    errorMessage(en, { code: "too-large", params: { reason: "other", limit: "7" }, message: "x" }),
    "The expression is too large (limit: 7).",
  );
});

test("engine errors become plain payloads", () => {
  const error = asPayload(new TinyDagError("domain", "x", 0, 5, "n2", { reason: "log" }));
  assert.deepEqual(error, {
    code: "domain",
    message: "x",
    params: { reason: "log" },
    start: 0,
    end: 5,
    node: "n2",
  });
  assert.equal(asPayload(new Error("bug")), null);
});

test("forward: leaves known at 0, each value lands at the end of its pulse", () => {
  const s = scheduleOf(DEFAULT, "forward");
  assert.equal(s.duration, 2);
  const at0 = frameAt(DEFAULT, s, 0);
  assert.equal(at0.nodes.get("n0")!.value, 2);
  assert.equal(at0.nodes.get("n2")!.value, null);
  assert.equal(at0.pulses.length, 0);
  const mid = frameAt(DEFAULT, s, 0.5);
  assert.equal(mid.nodes.get("n2")!.value, null);
  assert.deepEqual(mid.pulses.map((p) => p.edge).sort(), ["e0", "e1"]);
  assert.equal(frameAt(DEFAULT, s, TRAVEL).nodes.get("n2")!.value, -1);
  const end = frameAt(DEFAULT, s, 2);
  assert.equal(end.nodes.get("n4")!.value, -10);
  for (const n of end.nodes.values()) assert.equal(n.grad, null);
});

test("backward: the seed first, every grad -- until a contribution reaches it", () => {
  const s = scheduleOf(DEFAULT, "backward");
  assert.equal(s.events[0]!.kind, "seed");
  assert.equal(s.duration, 1 + DEFAULT.backward.length);
  const at0 = frameAt(DEFAULT, s, 0);
  for (const n of at0.nodes.values()) assert.equal(n.grad, null);
  assert.equal(frameAt(DEFAULT, s, 1).nodes.get("n4")!.grad, 1);
  assert.equal(frameAt(DEFAULT, s, 1).nodes.get("n2")!.grad, null);
  const two = frameAt(DEFAULT, s, 2);
  assert.equal(two.nodes.get("n2")!.grad, 10);
  assert.equal(two.nodes.get("n3")!.grad, null);
  assert.deepEqual(two.edges.get("e2")!.label, { incoming: 1, local: 10, contribution: 10, current: true });
  const end = frameAt(DEFAULT, s, s.duration);
  for (const node of DEFAULT.nodes) assert.equal(end.nodes.get(node.id)!.grad, node.grad);
});

test("a * a: the partial grad first, then the accumulated one", () => {
  const t = tl("a * a", { a: 3 });
  const s = scheduleOf(t, "backward");
  const grads = [0, 1, 2, 3].map((time) => frameAt(t, s, time).nodes.get("n0")!.grad);
  assert.deepEqual(grads, [null, null, 3, 6]);
});

test("the frame is a pure function of time: scrubbing back and forth gives the same picture", () => {
  const t = tl("relu(w * x + v * y + b)", { w: 0.5, x: 2, v: -1, y: 0.5, b: 0.25 });
  for (const direction of ["forward", "backward"] as const) {
    const s = scheduleOf(t, direction);
    for (const time of [0, 0.3, 1, 1.75, 2.5, s.duration / 2, s.duration]) {
      const a = frameAt(t, s, time);
      frameAt(t, s, s.duration - time);
      assert.deepEqual(frameAt(t, s, time), a);
    }
  }
});

test("final gradients reveal every gradient at once, on the cards whose value is known", () => {
  const s = scheduleOf(DEFAULT, "backward");
  const f = frameAt(DEFAULT, s, 0, true);
  for (const node of DEFAULT.nodes) assert.equal(f.nodes.get(node.id)!.grad, node.grad);
  // Forward, a card waits for its value before it shows a gradient (walkthrough 20: "value --" beside a
  // number for grad, on the cards and in the table).
  const forward = scheduleOf(DEFAULT, "forward");
  for (const time of [0, 1, forward.duration]) {
    const frame = frameAt(DEFAULT, forward, time, true);
    for (const node of DEFAULT.nodes) {
      const shown = frame.nodes.get(node.id)!;
      assert.equal(shown.grad, shown.value === null ? null : node.grad, `${node.id} at ${time}`);
    }
  }
  assert.equal(frameAt(DEFAULT, forward, 0, true).nodes.get(DEFAULT.root)!.grad, null);
  assert.equal(frameAt(DEFAULT, forward, forward.duration, true).nodes.get(DEFAULT.root)!.grad, 1);
});

test("stepping lands on whole events", () => {
  const s = scheduleOf(DEFAULT, "backward");
  assert.equal(stepTime(s, 0, 1), 1);
  assert.equal(stepTime(s, 1.4, 1), 2);
  assert.equal(stepTime(s, 1.4, -1), 1);
  assert.equal(stepTime(s, 2, -1), 1);
  assert.equal(stepTime(s, 0, -1), 0);
  assert.equal(stepTime(s, s.duration, 1), s.duration);
});

test("state: restart, play, seek, step, advance", () => {
  let st = initialState(DEFAULT, { a: 2, b: -3, c: 10 });
  assert.equal(st.direction, "forward");
  st = restart(st, "backward", true);
  assert.equal(st.time, 0);
  assert.ok(st.playing);
  st = advance(st, 0.5, false).state;
  assert.equal(st.time, 0.5);
  st = step(st, 1);
  assert.equal(st.time, 1);
  assert.equal(st.playing, false);
  st = seek(st, 99);
  assert.equal(st.time, st.schedule.duration);
  st = togglePlay(st);
  assert.equal(st.time, 0, "play at the end starts over");
  const stepped = advance(st, 0.6, true);
  assert.equal(stepped.state.time, 0, "reduced motion: no half steps");
  assert.equal(advance(stepped.state, 0.6, true, stepped.carry).state.time, 1);
  // The compact player's pace (walkthrough 14): 0.6 of an event in a second, a whole one in 1 2/3 s.
  const compact = restart(st, "backward", true);
  assert.equal(advance(compact, 1, false, 0, COMPACT_PACE).state.time, 0.6);
  const slow = advance(compact, 1, true, 0, COMPACT_PACE);
  assert.equal(slow.state.time, 0, "reduced motion: no half steps at the compact pace either");
  assert.equal(advance(slow.state, 2 / 3, true, slow.carry, COMPACT_PACE).state.time, 1);
  // ...lingering once a result has landed (walkthrough 15): from 0.75, a second covers the landed
  // quarter at half the pace (0.25 of the event in 5/6 s), then 0.1 of the next event's travel.
  const landed = { ...compact, time: 0.75 };
  const on = advance(landed, 1, false, 0, COMPACT_PACE, COMPACT_LINGER).state.time;
  assert.ok(Math.abs(on - 1.1) < 1e-9, String(on));
  assert.equal(advance(compact, 1, false, 0, COMPACT_PACE, COMPACT_LINGER).state.time, 0.6, "travelling");
  const end = advance({ ...compact, time: 4.9 }, 10, false, 0, COMPACT_PACE, COMPACT_LINGER).state;
  assert.deepEqual([end.time, end.playing], [compact.schedule.duration, false], "it ends, and stops");
  // The sandbox lingers too, at its own pace (walkthrough 16: a result showed for 0.25 s): the landed
  // quarter takes half a second, the travel three quarters.
  const sandbox = restart(st, "backward", true);
  const rest = advance({ ...sandbox, time: 0.75 }, 0.5, false, 0, 1, SANDBOX_LINGER).state.time;
  assert.ok(Math.abs(rest - 1) < 1e-9, String(rest));
  assert.equal(advance(sandbox, 0.75, false, 0, 1, SANDBOX_LINGER).state.time, 0.75, "travelling");
});

test("state: a new timeline with the same structure keeps the moment", () => {
  let st = seek(restart(initialState(DEFAULT, {}), "backward", false), 3);
  const moved = tl("(a + b) * c", { a: 1, b: 4, c: -2 });
  assert.equal(structureKey(moved), structureKey(DEFAULT));
  st = withTimeline(st, moved);
  assert.equal(st.time, 3);
  assert.equal(st.values.c, -2);
  assert.notEqual(structureKey(tl("a * a")), structureKey(DEFAULT));
});

test("view: rotation is clamped", () => {
  const v = rotate({ yaw: 0, pitch: 0 }, 10_000, -10_000, 600);
  assert.deepEqual(v, { yaw: VIEW_LIMITS.yaw, pitch: -VIEW_LIMITS.pitch });
  assert.deepEqual(clampView({ yaw: 0.1, pitch: 0.1 }), { yaw: 0.1, pitch: 0.1 });
});

test("sliders: -5..5, widened to include the value", () => {
  assert.deepEqual(sliderRange(2), { min: -5, max: 5, step: 0.1 });
  assert.equal(sliderRange(-7).max, 20);
  assert.ok(sliderRange(1000).max >= 1000);
});

test("sliders: a value set from outside never sits at its slider's end (walk 41)", () => {
  // The range an earlier value left, ±10; c = 10 from a link then sat at its end, unable to grow
  const range = { min: "-10", max: "10", step: "0.1" };
  const slider = { range } as unknown as Slider;
  fitSlider(slider, 10);
  assert.deepEqual([range.min, range.max].map(Number), [-20, 20]);
  fitSlider(slider, -20);
  assert.deepEqual([range.min, range.max].map(Number), [-50, 50]);
  fitSlider(slider, 7); // inside, with room on both sides: kept
  assert.deepEqual([range.min, range.max].map(Number), [-50, 50]);
});

test("URL: a moment round-trips; hostile input is dropped or kept as plain text", () => {
  const hash = encodeMoment("tinydag-1", {
    expression: "(a + b) * c",
    values: { a: 2, b: -3, c: 10 },
    direction: "backward",
    time: 2.5,
    localDerivatives: true,
    finalGradients: false,
    playing: true,
  });
  assert.deepEqual(decodeMoment(hash, "tinydag-1"), {
    expression: "(a + b) * c",
    values: { a: 2, b: -3, c: 10 },
    direction: "backward",
    time: 2.5,
    localDerivatives: true,
    playing: true,
  });
  assert.equal(decodeMoment(hash.replace("play=1", "play=0"), "tinydag-1")?.playing, undefined);
  // Nudge check's answer travels as its leaf and h; anything else in its place is dropped
  const nudged = encodeMoment("tinydag-1", {
    values: { a: 2, b: -3, c: 10 },
    expression: "(a + b) * c",
    direction: "backward",
    time: 2.5,
    localDerivatives: true,
    finalGradients: false,
    playing: false,
    nudge: { leaf: "c", h: 1e-9 },
  });
  assert.ok(nudged.includes("&nudge=c%3A1e-9"), nudged);
  assert.deepEqual(decodeMoment(nudged, "tinydag-1")?.nudge, { leaf: "c", h: 1e-9 });
  for (const bad of ["ab:1", "a:0", "a:NaN", "a:1e999", ":1", "a"])
    assert.equal(decodeMoment(`${hash}&nudge=${bad}`, "tinydag-1")?.nudge, undefined, bad);
  assert.equal(decodeMoment(hash, "tinydag-2"), null);
  assert.equal(decodeMoment("#the-sandbox", "tinydag-1"), null);
  const hostile = decodeMoment(
    "#tinydag-1?expr=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&vals=a:1e999,b:NaN,ab:3,c:%3Cscript%3E,d:4&dir=sideways&t=-1",
    "tinydag-1",
  );
  assert.deepEqual(hostile, { expression: "<img src=x onerror=alert(1)>", values: { d: 4 } });
});

test("URL: an exercise's panel and the predictions a language link carries", () => {
  const base = "#tinydag-1?expr=(a%20%2B%20b)%20*%20c&vals=a%3A1%2Cb%3A4%2Cc%3A-2&dir=forward&t=2";
  assert.equal(decodeMoment(`${base}&open=predict`, "tinydag-1")?.open, "predict");
  assert.equal(decodeMoment(`${base}&open=nudge`, "tinydag-1")?.open, "nudge");
  assert.equal("open" in (decodeMoment(`${base}&open=sideways`, "tinydag-1") ?? {}), false);
  // The exercise shown: its link's place, a small whole number (an address is untrusted).
  assert.equal(decodeMoment(`${base}&task=2`, "tinydag-1")?.task, 2);
  for (const bad of ["-1", "1.5", "100", "x", ""])
    assert.equal("task" in (decodeMoment(`${base}&task=${bad}`, "tinydag-1") ?? {}), false, bad);
  // A Russian learner's comma and a fraction; an empty field and a leaf name that is not one are dropped.
  const typed = [
    { leaf: "a", text: " 0,5 " },
    { leaf: "b", text: "1/3" },
    { leaf: "c", text: "" },
  ];
  const toEnglish = withPredictions(`${base}&predict.a=9`, typed, "ru", "en");
  assert.equal(toEnglish.match(/predict\.a=/g)?.length, 1, "a carried prediction is replaced, not repeated");
  assert.deepEqual(decodeMoment(toEnglish, "tinydag-1")?.predictions, { a: "0,5", b: "1/3" });
  assert.deepEqual(
    decodeMoment(`${base}&predict.ab=1&predict.c=%20%20`, "tinydag-1")?.predictions,
    undefined,
  );
  // "1,000,000" is a million in English and no number in Russian or Estonian: carried as the number it
  // was; "2,718", no number in English (2.718 or 2718?), goes as typed, a decimal comma there.
  const grouped = withPredictions(base, [{ leaf: "a", text: "1,000,000" }], "en", "et");
  assert.deepEqual(decodeMoment(grouped, "tinydag-1")?.predictions, { a: "1000000" });
  const either = withPredictions(base, [{ leaf: "a", text: "2,718" }], "en", "et");
  assert.deepEqual(decodeMoment(either, "tinydag-1")?.predictions, { a: "2,718" });
  const decimal = withPredictions(base, [{ leaf: "a", text: "-2.5" }], "en", "ru");
  assert.deepEqual(decodeMoment(decimal, "tinydag-1")?.predictions, { a: "-2.5" });
  const long = withPredictions(base, [{ leaf: "a", text: "x".repeat(90) }], "en", "ru");
  assert.equal(decodeMoment(long, "tinydag-1")?.predictions?.a?.length, 40, "a long text is cut");
  assert.equal(
    withPredictions(base, typed.slice(2), "en", "ru"),
    base,
    "nothing typed: the address as it was",
  );
  // Checked: the other page judges them again; an old mark is replaced, not repeated.
  const checked = withPredictions(`${base}&checked=1`, typed, "ru", "en", true);
  assert.equal(checked.match(/checked=1/g)?.length, 1);
  assert.equal(decodeMoment(checked, "tinydag-1")?.checked, true);
  assert.equal(
    decodeMoment(withPredictions(`${base}&checked=1`, typed, "ru", "en"), "tinydag-1")?.checked,
    undefined,
  );
  assert.equal(
    decodeMoment(`${base}&checked=1`, "tinydag-1")?.checked,
    undefined,
    "no predictions: nothing to judge",
  );
});

test("URL: the exercise a language link carries replaces the one before, with the panel its words sit in", () => {
  const base = "#tinydag-1?expr=a%20*%20a&vals=a%3A3&dir=backward&t=0";
  const opened = withTask(`${base}&open=nudge&task=4&predict.a=2`, { exercise: "1", open: "predict" });
  assert.equal(opened, `${base}&predict.a=2&task=1&open=predict`);
  assert.equal(decodeMoment(opened, "tinydag-1")?.open, "predict");
  assert.deepEqual(decodeMoment(opened, "tinydag-1")?.predictions, { a: "2" });
  // Words under the expression (no panel): an old panel goes with the old exercise.
  assert.equal(withTask(`${base}&open=predict`, { exercise: "3" }), `${base}&task=3`);
  // Closed (no words shown): a stale exercise goes, the panel the learner has open stays.
  assert.equal(withTask(`${base}&task=2&open=predict`, null), `${base}&open=predict`);
  assert.equal(withTask("#tinydag-1?task=2", null), "#tinydag-1");
  assert.equal(withTask("#tinydag-1", { exercise: "2" }), "#tinydag-1?task=2");
});

test("URL: a hand-written + is a plus; links the player wrote earlier (+ for a space) still read", () => {
  assert.ok(!hashOf("a + b").includes("+"), hashOf("a + b"));
  assert.equal(decodeMoment("#tinydag-1?expr=a+b", "tinydag-1")?.expression, "a+b");
  assert.equal(decodeMoment("#tinydag-1?expr=(a+b)*c&vals=a:2,b:-3", "tinydag-1")?.expression, "(a+b)*c");
  assert.equal(decodeMoment("#tinydag-1?expr=a%20+%20b", "tinydag-1")?.expression, "a + b");
  const earlier = "#tinydag-1?expr=%28a+%2B+b%29+*+c&vals=a%3A2%2Cb%3A-3%2Cc%3A10&dir=backward&t=2.5";
  assert.deepEqual(decodeMoment(earlier, "tinydag-1"), {
    expression: "(a + b) * c",
    values: { a: 2, b: -3, c: 10 },
    direction: "backward",
    time: 2.5,
  });
  for (const expression of ["a + b", "a+b", "(a + b) * c", "log(exp(a) + b ** 2)", "a − b"]) {
    assert.equal(decodeMoment(hashOf(expression), "tinydag-1")?.expression, expression);
  }
});

function hashOf(expression: string): string {
  return encodeMoment("tinydag-1", {
    expression,
    values: { a: 2 },
    direction: "forward",
    time: 0,
    localDerivatives: false,
    finalGradients: false,
    playing: false,
  });
}

test("derived nodes: the primitive expansion and the local derivatives", () => {
  const sub = tl("a - b", { a: 5, b: 2 });
  const node = sub.nodes.find((n) => n.op === "-")!;
  assert.equal(expansionOf(node, sub), "a − b = a + (b · −1)");
  assert.deepEqual(localsOf(node, sub), ["∂/∂a = 1", "∂/∂b = −1"]);
  const div = tl("(a - b) / c", { a: 5, b: 2, c: 4 });
  assert.equal(expansionOf(div.nodes.find((n) => n.op === "/")!, div), "(a − b) / c = (a − b) · c ** −1");
  const neg = tl("-a");
  assert.equal(expansionOf(neg.nodes.find((n) => n.op === "neg")!, neg), "−a = a · −1");
  assert.equal(expansionOf(DEFAULT.nodes[4]!, DEFAULT), null);
  assert.equal(nameOf(DEFAULT.nodes[2]!), "(a + b)");
  assert.equal(nameOf(DEFAULT.nodes[0]!), "a");
  // A product of two calls is bracketed as any product is (walkthrough 28: "relu(… − …) × exp(g − h)
  // receives" beside "(log(a × a + 1) ** 2) receives"); a call alone needs none.
  const calls = buildTimeline("relu(a) * exp(b)", { a: 1, b: 0 });
  const root = calls.nodes.find((n) => n.id === calls.root)!;
  assert.equal(nameOf(root), "(relu(a) × exp(b))");
  assert.equal(nameOf(calls.nodes.find((n) => n.op === "relu")!), "relu(a)");
  assert.equal(nameOf(buildTimeline("(a)", { a: 1 }).nodes[0]!), "a");
});

test("narration: one sentence per chain-rule step, in the page's language", () => {
  const s = scheduleOf(DEFAULT, "backward");
  const en = makeI18n("en", strings("en"));
  const ru = makeI18n("ru", strings("ru"));
  const cStep = s.events.findIndex((e) => e.kind === "handoff" && e.step.child === "n3");
  assert.equal(describeEvent(s.events[cStep]!, DEFAULT, en), "c receives 1 × (−1) = −1; c.grad is now −1");
  assert.match(describeEvent(s.events[cStep]!, DEFAULT, ru), /^c получает 1 × \(−1\) = −1/);
  assert.match(describeEvent(s.events[0]!, DEFAULT, en), /grad 1/);
});

test("colours: parsed from computed styles, lifted to 3:1 on a dark page, primary and accent told apart", () => {
  assert.deepEqual(parseColor("rgb(255, 0, 51)"), [1, 0, 0.2]);
  assert.deepEqual(parseColor("rgba(0, 0, 0, 0.87)"), [0, 0, 0]);
  const slate: [number, number, number] = [0.118, 0.129, 0.161];
  const indigo = parseColor("rgb(64, 81, 181)");
  assert.ok(contrast(indigo, slate) < 3);
  assert.ok(contrast(withContrast(indigo, slate, 3), slate) >= 3);
  assert.deepEqual(withContrast(indigo, [1, 1, 1], 3), indigo, "already fine on white");
  assert.ok(
    hueDistance(indigo, parseColor("rgb(83, 109, 254)")) < 50,
    "Material's indigo accent is the same hue",
  );
  assert.ok(hueDistance(indigo, parseColor("rgb(255, 110, 66)")) > 90);
});

test("nudge check: Δoutput / h next to the gradient", () => {
  const exact = nudgeCheck(recompute, DEFAULT, { a: 2, b: -3, c: 10 }, "c", 0.001);
  assert.ok(exact.ok);
  assert.equal(exact.grad, -1);
  assert.ok(Math.abs(exact.ratio - exact.grad) < 1e-9, "a linear dependence: the same number");
  assert.ok(Math.abs(exact.after - -10.001) < 1e-12);
  assert.equal(exact.rounding, false);
  const square = tl("a * a", { a: 3 });
  const curved = nudgeCheck(recompute, square, { a: 3 }, "a", 0.001);
  assert.ok(curved.ok);
  assert.ok(Math.abs(curved.ratio - 6) < 0.01 && curved.ratio !== 6, "on a curve: close, not equal");
  const log = tl("log(a)", { a: 0.0005 });
  const failed = nudgeCheck(recompute, log, { a: 0.0005 }, "a", -0.001);
  assert.ok(!failed.ok && failed.error.code === "domain");
  assert.equal(nudgeCheck(recompute, DEFAULT, {}, "z", 0.001).ok, false);
});

test("nudge check knows when h moves a relu's input off its kink, or across it", () => {
  const kinked = tl("relu(a * b)", { a: 0, b: 3 });
  const on = nudgeCheck(recompute, kinked, { a: 0, b: 3 }, "a", 0.001); // 0 -> 0.003: off the kink
  assert.ok(on.ok && on.kink === "on" && on.ratio === 3 && on.grad === 0);
  const left = nudgeCheck(recompute, kinked, { a: 0, b: 3 }, "a", -0.001); // 0 -> −0.003: relu's 0 side
  assert.ok(left.ok && left.kink === null && left.ratio === 0 && left.grad === 0);
  const kink = (expression: string, a: number, h: number) =>
    (nudgeCheck(recompute, tl(expression, { a }), { a }, "a", h) as { kink: string | null }).kink;
  assert.equal(kink("relu(a) * 2", -0.0005, 0.001), "across"); // −0.0005 -> 0.0005: both slopes
  assert.equal(kink("relu(a) * 2", 0.0005, -0.001), "across");
  assert.equal(kink("relu(a) * 2", -0.0005, 0.0001), null); // stays on the 0 side
  assert.equal(kink("relu(a) * 2", 0.0005, -0.0005), "across"); // onto 0, relu's 0 side
  assert.equal(kink("a * a", 3, 0.5), null);
});

test("an input error at the text's unfinished end waits for the learner's pause; any other shows at once", () => {
  const errorOf = (text: string) => {
    try {
      buildTimeline(text, { a: 1, b: 2, c: 3 });
    } catch (e) {
      const payload = asPayload(e);
      if (payload) return payload;
    }
    throw new Error(`${text} has no engine error`);
  };
  // Walkthrough 8: "relu(" said "ends too early" in red at the keystroke after "relu".
  for (const typing of ["", "relu(", "relu(a *", "a * ", "log(a", "(a + b", "lo", "a +"])
    assert.ok(atTypingEnd(errorOf(typing), typing), `${JSON.stringify(typing)} is still being typed`);
  for (const wrong of ["a ** b", "lgo(a) + b", "a + ) * b", "log(a - a) * b", "1 / (a - a)"])
    assert.ok(!atTypingEnd(errorOf(wrong), wrong), `${wrong}: the error is in the text, not its end`);
});

test("a big graph's expansions and local derivatives name long operands as the caption does", () => {
  // Walkthrough 9: with local derivatives on, the 40-node graph's root expansion spelled every operand
  // in full (hundreds of characters) and its box covered the cards.
  const forty =
    "relu(a * b + c * d - e / f) * exp(g - h) + log(a * a + 1) ** 2 - (b - c) / (d + 2)" +
    " + relu(-e * f) * (g + h * 0.5) - exp(-a) * b";
  const t = buildTimeline(forty, { a: 2, b: -3, c: 1, d: 1, e: 1, f: 1, g: 1, h: 1 });
  const lines = t.nodes.flatMap((n) => [expansionOf(n, t) ?? "", ...localsOf(n, t)]);
  const longest = Math.max(...lines.map((l) => Array.from(l).length));
  assert.ok(longest <= 80, `${longest}: ${lines.find((l) => Array.from(l).length === longest)}`);
  const small = buildTimeline("(a - b) / c", { a: 1, b: 2, c: 3 });
  assert.deepEqual(small.nodes.map((n) => expansionOf(n, small)).filter(Boolean), [
    "a − b = a + (b · −1)",
    "(a − b) / c = (a − b) · c ** −1",
  ]);
});
