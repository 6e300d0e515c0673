// The number rule and the strings files: code (cards, labels) writes numbers with a dot, sentences
// (narration, nudge check, messages) the language's way; counted words follow Intl.PluralRules; every
// translation keeps the English placeholders and plural selectors.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTimeline, type ErrorPayload } from "../../src/inference/index";
import { formatNumber, productText, proseNumber } from "../../src/player/model/format";
import { errorMessage, fill, makeI18n, PLURAL } from "../../src/player/shared/i18n";
import { describeEvent } from "../../src/player/controls/narration";
import { exactDigits } from "../../src/player/controls/valuecheck";
import { nudge } from "../../src/player/engine/live";
import { nudgeWords } from "../../src/player/model/nudge";
import { strings } from "./strings-file";

const LANGS = ["en", "ru", "et"] as const;
const MINUS = "\u2212";

const placeholders = (text: string): string[] =>
  [...text.replace(PLURAL, "").matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!).sort();
const selectors = (text: string): string[] => [...text.matchAll(PLURAL)].map((m) => m[1]!).sort();

test("code numbers keep the dot in every language", () => {
  assert.equal(formatNumber(-10.001), `${MINUS}10`);
  assert.equal(formatNumber(0.001), "0.001");
  assert.equal(formatNumber(2.5), "2.5");
  assert.equal(productText(0.5, 2, 1), "0.5 × 2 = 1");
});

test("prose numbers use the language's decimal separator and a typographic minus", () => {
  assert.equal(proseNumber(0.001, "en"), "0.001");
  assert.equal(proseNumber(0.001, "ru"), "0,001");
  assert.equal(proseNumber(0.001, "et"), "0,001");
  assert.equal(proseNumber(-10.001, "ru", 7), `${MINUS}10,001`);
  assert.equal(proseNumber(-10.001, "et", 7), `${MINUS}10,001`);
  assert.equal(proseNumber(-10.001, "en", 7), `${MINUS}10.001`);
  assert.equal(proseNumber(0, "ru"), "0");
  assert.equal(proseNumber(12345, "ru").replace(/\s/g, " "), "12 350");
  assert.equal(proseNumber(Number.POSITIVE_INFINITY, "et"), "∞");
  assert.equal(productText(0.5, 2, 1, "ru"), "0,5 × 2 = 1");
});

test("a value kept after a refusal is said with every digit its field writes", () => {
  const exact = (x: number, lang: string): string => proseNumber(x, lang, exactDigits(x)).replace(/\s/g, " ");
  assert.equal(exact(999999, "en"), "999,999", "walkthrough 31: it said 1,000,000 beside 999999");
  assert.equal(exact(999999, "ru"), "999 999");
  assert.equal(exact(123456.5, "et"), "123 456,5");
  assert.equal(exact(-2.5, "en"), `${MINUS}2.5`);
  assert.equal(exact(0.1, "en"), "0.1", "the fewest digits that give the value back");
  assert.equal(exact(1 / 3, "ru"), "0,3333333333333333");
  assert.equal(exact(2, "et"), "2");
});

test("narration writes its numbers the language's way", () => {
  const t = buildTimeline("a * b", { a: 0.5, b: 3 });
  const step = t.backward.find((s) => s.child === "n1")!; // b receives 1 × 0.5
  for (const lang of LANGS) {
    const said = describeEvent({ kind: "handoff", step }, t, makeI18n(lang, strings(lang)));
    const half = lang === "en" ? "0.5" : "0,5";
    assert.ok(said.includes(`1 × ${half} = ${half}`), `${lang}: ${said}`);
    assert.ok(!/\d\.\d/.test(said) || lang === "en", `${lang}: a dot in a sentence: ${said}`);
  }
});

test("counted words follow the language's plural rules", () => {
  const ru = strings("ru").error_too_large_nodes!;
  const say = (n: number): string => fill(ru, { count: n, limit: 40 }, "ru");
  assert.match(say(41), /В этом выражении 41 узел,/);
  assert.match(say(42), /В этом выражении 42 узла,/);
  assert.match(say(45), /В этом выражении 45 узлов, .* не больше 40\./);
  const en = strings("en").error_too_large_characters!;
  assert.match(fill(en, { limit: 1 }, "en"), /than 1 character:/);
  assert.match(fill(en, { limit: 200 }, "en"), /than 200 characters:/);
  assert.match(fill(strings("et").error_too_large_characters!, { limit: 1 }, "et"), /kui 1 märk:/);
  assert.match(fill(strings("et").error_too_large_characters!, { limit: 200 }, "et"), /kui 200 märki:/);
  const et = strings("et").error_too_large_nodes!;
  assert.match(fill(et, { count: 41, limit: 40 }, "et"), /on 41 sõlme, .* kuni 40 sõlmega\./);
  assert.match(
    fill(strings("en").error_too_large_nodes!, { count: 51, limit: 40 }, "en"),
    /makes 51 nodes; at most 40 /,
  );
  assert.equal(fill("{n} {n|one:a|other:b}", { n: "1 000,5" }, "ru"), "1 000,5 b"); // a written-out count still counts
  // The sliders' title says how many variables it holds (folded, behind it: xb13)
  const values = (lang: string, count: number): string => fill(strings(lang).variables!, { count }, lang);
  assert.deepEqual(
    [1, 3, 13].map((n) => values("en", n)),
    ["Values: 1 variable", "Values: 3 variables", "Values: 13 variables"],
  );
  assert.deepEqual(
    [1, 3, 13, 21].map((n) => values("ru", n)),
    [
      "Значения: 1 переменная",
      "Значения: 3 переменные",
      "Значения: 13 переменных",
      "Значения: 21 переменная",
    ],
  );
  assert.deepEqual(
    [1, 13].map((n) => values("et", n)),
    ["Väärtused: 1 muutuja", "Väärtused: 13 muutujat"],
  );
});

test("Check with one unreadable field speaks of that field, with several of each (walkthrough 10)", () => {
  // The messages come under the row of fields (walkthrough 13), each naming its field (walkthrough 15).
  const say = (lang: string, count: number): string =>
    fill(strings(lang).predict_incomplete!, { count }, lang);
  assert.match(say("en", 1), /^A field needs a number first: see its message under the fields\.$/);
  assert.match(say("en", 2), /^Some fields need a number first: see their messages under the fields\.$/);
  assert.match(say("ru", 1), /^В одном поле нужно число: см\. сообщение под полями\.$/);
  for (const n of [2, 3])
    assert.match(say("ru", n), /^В некоторых полях нужно число: см\. сообщения под полями\.$/);
  assert.match(say("et", 1), /^Üks väli ootab veel arvu: vaata selle teadet väljade all\.$/);
  assert.match(say("et", 3), /^Mõned väljad ootavad veel arvu: vaata nende teateid väljade all\.$/);
  for (const lang of ["en", "ru", "et"]) {
    const t = makeI18n(lang, strings(lang)).t;
    assert.match(t("predict_empty", { leaf: "b" }), /^b\.grad: /, lang);
    assert.match(t("predict_not_a_number", { leaf: "c", text: "ten" }), /^c\.grad: .*ten/, lang);
  }
});

test("a message's count is prose and picks its plural form", () => {
  const error: ErrorPayload = {
    code: "too-large",
    message: "",
    params: { reason: "nodes", limit: "40", count: "42" },
    start: 0,
    end: 5,
  };
  assert.match(errorMessage(makeI18n("ru", strings("ru")), error, "a + b"), /^В этом выражении 42 узла,/);
  assert.match(
    errorMessage(
      makeI18n("en", strings("en")),
      { ...error, params: { reason: "nodes", limit: "1", count: "1001" } },
      "a + b",
    ),
    /^This expression makes 1,001 nodes; at most 1 keep/,
  );
});

test("every translation keeps the English placeholders and plural selectors", () => {
  const en = strings("en");
  for (const lang of ["ru", "et"]) {
    const other = strings(lang);
    assert.deepEqual(Object.keys(other).sort(), Object.keys(en).sort(), `${lang}: keys`);
    for (const [key, text] of Object.entries(en)) {
      assert.deepEqual(placeholders(other[key]!), placeholders(text), `${lang}.${key}: placeholders`);
      for (const name of selectors(other[key]!))
        assert.ok(
          placeholders(text).includes(name) || selectors(text).includes(name),
          `${lang}.${key}: {${name}|…} counts nothing English has`,
        );
    }
  }
  for (const lang of LANGS) {
    for (const [key, text] of Object.entries(strings(lang))) {
      const broken = /\{[a-z_]+\|/.test(text.replace(PLURAL, ""));
      assert.ok(!broken, `${lang}.${key}: a plural selector that cannot be read`);
      for (const m of text.matchAll(PLURAL))
        assert.match(m[2]!, /(^|\|)other:/, `${lang}.${key}: a plural selector needs an 'other' form`);
    }
  }
});

test("sentences in ru and et write example numbers with a comma, code words stay", () => {
  for (const lang of ["ru", "et"]) {
    for (const [key, text] of Object.entries(strings(lang))) {
      if (key.startsWith("code_")) continue; // code, not prose
      assert.ok(
        !/\d\.\d/.test(text.replace(/\{[^}]*\}/g, "")),
        `${lang}.${key}: a decimal dot in a sentence: ${text}`,
      );
    }
  }
});

test("a nudge's two outputs are written with the digits that tell them apart", () => {
  const values = { a: 2, b: -3, c: 10 };
  const timeline = buildTimeline("(a + b) * c", values);
  const said = (lang: string, h: number): string =>
    nudgeWords(
      { leaf: "c", h, result: nudge(timeline, values, "c", h) },
      true,
      makeI18n(lang, strings(lang)),
      "(a + b) * c",
    ).text;
  // Walkthrough 19: h = 1e-9 said the output moved "from −10 to −10".
  assert.match(said("en", 1e-9), /from −10 to −10\.000000001: /);
  assert.match(said("ru", 1e-9), /с\u00a0−10 на −10,000000001: /);
  assert.match(said("et", 1e-9), /väärtuselt −10 väärtusele −10,000000001: /);
  assert.match(said("en", 0.001), /from −10 to −10\.001: /, "no more digits than a larger h needs");
  // An output that does not move: seven digits, and no word of rounding where the gradient is 0 too
  // (review 52: fifteen digits, and "try a larger h" beside a dead ReLU)
  const dead = { a: 2, b: -3, c: 10 };
  const flat = buildTimeline("relu(a * b) + c / 3", dead);
  const words = nudgeWords(
    { leaf: "a", h: 0.001, result: nudge(flat, dead, "a", 0.001) },
    true,
    makeI18n("en", strings("en")),
    "relu(a * b) + c / 3",
  ).text;
  assert.match(words, /from 3\.333333 to 3\.333333: Δoutput \/ h = 0, and a\.grad = 0\./);
  assert.ok(!words.includes(strings("en").nudge_rounding!.slice(0, 20)), words);
});

test("a nudge whose ratio and gradient differ says why, in every language (walkthrough 28)", () => {
  const said = (
    lang: string,
    expression: string,
    values: Record<string, number>,
    leaf: string,
    h: number,
  ) => {
    const timeline = buildTimeline(expression, values);
    const result = nudge(timeline, values, leaf, h);
    return nudgeWords({ leaf, h, result }, true, makeI18n(lang, strings(lang)), expression).text;
  };
  const why = {
    en: [
      "because the output curves",
      "across 0, its kink",
      "finds the slope at the point itself",
      "is exactly 0, its kink",
    ],
    ru: [
      "зависит от a нелинейно",
      "через 0 — точку её излома",
      "находит наклон в самой точке",
      "стоит ровно в 0 — в точке её излома",
    ],
    et: [
      "sõltub muutujast a mittelineaarselt",
      "üle nulli, tema murdepunkti",
      "leiab tõusu täpselt selles punktis",
      "asub täpselt nullis, tema murdepunktis",
    ],
  } as const;
  for (const lang of ["en", "ru", "et"] as const) {
    const [curve, kink, point, on] = why[lang];
    const curved = said(lang, "1 / a", { a: 2 }, "a", 0.5); // −0.2 beside −0.25
    assert.ok(curved.includes(curve) && curved.includes(point) && !curved.includes(kink), curved);
    // From exactly 0 (walkthrough 29: 3 beside 0 was said to average "across the jump"): the slope on
    // the side h goes to, beside the one relu takes at 0.
    const onKink = said(lang, "relu(a * b)", { a: 0, b: 3 }, "a", 0.001); // 3 beside 0
    assert.ok(onKink.includes(on) && onKink.includes(point) && !onKink.includes(kink), onKink);
    const kinked = said(lang, "relu(a * b)", { a: -0.0005, b: 3 }, "a", 0.001); // 1.5 beside 0
    assert.ok(kinked.includes(kink) && kinked.includes(point) && !kinked.includes(curve), kinked);
    assert.ok(!kinked.includes(on) && !onKink.includes(curve), kinked);
    // Equal as shown (a straight line; the 1/a curve at h = 1e-7): the one sentence as before.
    for (const same of [
      said(lang, "(a + b) * c", { a: 2, b: -3, c: 10 }, "c", 0.001),
      said(lang, "1 / a", { a: 2 }, "a", 1e-7),
    ])
      assert.ok(
        !same.includes(curve) && !same.includes(point) && same.includes(strings(lang).nudge_one_pass!),
        same,
      );
  }
});
