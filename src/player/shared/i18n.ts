// UI strings of the page's language (src/player/strings/LANG.yml, embedded by the site plugin).
// Every visible word of the player comes from here; placeholders are {name}. A word that depends on
// a count picks its form by the language's plural rules (Intl.PluralRules):
// "{limit} {limit|one:символа|few:символов|many:символов|other:символа}".

import type { ErrorPayload } from "../../inference/types";
import { proseNumber } from "../model/format";

export type Strings = Readonly<Record<string, string>>;

export interface I18n {
  lang: string;
  /** The string for `key` with its {placeholders} filled; the key itself when it is missing. */
  t(key: string, params?: Readonly<Record<string, string | number>>): string;
  has(key: string): boolean;
}

export function makeI18n(lang: string, strings: Strings): I18n {
  return {
    lang,
    has: (key) => Object.hasOwn(strings, key),
    t: (key, params = {}) => fill(strings[key] ?? key, params, lang),
  };
}

/** {name} -> params.name; {name|one:…|other:…} -> the form for params.name's plural category in `lang`. */
export function fill(
  template: string,
  params: Readonly<Record<string, string | number>>,
  lang = "en",
): string {
  const has = (name: string): boolean => Object.hasOwn(params, name);
  return template
    .replace(PLURAL, (whole, name: string, forms: string) =>
      has(name) ? (pluralForm(forms, countOf(params[name]!), lang) ?? whole) : whole,
    )
    .replace(/\{([a-z_]+)\}/g, (whole, name: string) => (has(name) ? String(params[name]) : whole));
}

/** A plural selector: {name|category:form|…}; categories are CLDR's (zero one two few many other). */
export const PLURAL = /\{([a-z_]+)\|((?:(?:zero|one|two|few|many|other):[^|{}]*\|?)+)\}/g;

// One set of rules per language: making one took longer than the rest of a slider step's sentences.
const RULES: Record<string, Intl.PluralRules> = {};

function pluralForm(forms: string, count: number, lang: string): string | undefined {
  const table = new Map(
    forms
      .split("|")
      .filter(Boolean)
      .map((f) => [f.slice(0, f.indexOf(":")), f.slice(f.indexOf(":") + 1)] as const),
  );
  const category = Number.isFinite(count)
    ? (RULES[lang] ??= new Intl.PluralRules(lang)).select(count)
    : "other";
  return table.get(category) ?? table.get("other");
}

/** The count behind a filled-in number, also when it was already written as prose ("1 000,5"). */
function countOf(value: string | number): number {
  if (typeof value === "number") return value;
  return Number(
    value
      .replace(/\s/g, "") // JavaScript's \s has the no-break spaces
      .replace(/\u2212/g, "-")
      .replace(",", "."),
  );
}

/** The string key for an engine error: one per code, and one per reason where the code has reasons. */
export function errorKey(error: Pick<ErrorPayload, "code" | "params" | "start">): string {
  const code = error.code.replace(/-/g, "_");
  let reason = error.params.reason;
  // Both engines name too-large's two cases in params.reason ("characters" or "nodes"). Should a
  // payload come without it (an older engine), the span still tells them apart: a length error
  // starts at the limit, a size error at 0.
  if (reason === undefined && error.code === "too-large") reason = error.start ? "characters" : "nodes";
  return reason === undefined ? `error_${code}` : `error_${code}_${reason.replace(/-/g, "_")}`;
}

type ErrorFields = Pick<ErrorPayload, "code" | "params" | "start" | "message"> &
  Partial<Pick<ErrorPayload, "end">>;

/**
 * The localized message for an engine error, falling back to the engine's English text. The
 * sentence names its place itself ({text}: a short excerpt of `source`, the expression the error
 * is about), so nothing is appended after its full stop.
 */
export function errorMessage(i18n: I18n, error: ErrorFields, source?: string): string {
  const text = placeOf(error, source);
  const params: Record<string, string> = { ...error.params, text };
  // Numbers in a message are prose: the language's own way of writing them.
  for (const name of NUMERIC_PARAMS) {
    const value = params[name];
    if (value !== undefined && value.trim() !== "" && Number.isFinite(Number(value)))
      params[name] = proseNumber(Number(value), i18n.lang);
  }
  let key = errorKey(error);
  const char = error.params.char;
  if (key === "error_syntax_character" && char !== undefined && !isPrintableAscii(char)) {
    params.code = codePoint(char);
    key = isInvisible(char) ? "error_syntax_character_invisible" : "error_syntax_character_code";
    if (!i18n.has(key)) key = "error_syntax_character";
  }
  // A Cyrillic letter (walk 41: a Russian keyboard's "а" looks just like the lesson's a, and "the
  // character «а» (U+0430) is not allowed" left the learner guessing): whose letter it is, and the Latin
  // letter it looks like, if any.
  if (key === "error_syntax_character_code" && /\p{Script=Cyrillic}/u.test(char ?? "")) {
    const at = LOOKALIKES.indexOf(char!);
    if (at >= 0) params.latin = LOOKALIKES[at + 1]!;
    const cyrillic = at >= 0 ? "error_syntax_character_lookalike" : "error_syntax_character_cyrillic";
    if (i18n.has(cyrillic)) key = cyrillic;
  }
  const decimal = char === "," ? decimalCommaAt(source, error.start) : null;
  if (key === "error_syntax_character" && decimal && i18n.has("error_syntax_decimal_comma")) {
    Object.assign(params, decimal);
    key = "error_syntax_decimal_comma";
  }
  // A spreadsheet's or a calculator's power sign (walk 39: "^" got no word on what to write instead)
  if (key === "error_syntax_character" && char === "^" && i18n.has("error_syntax_caret"))
    key = "error_syntax_caret";
  // A typed 0 as the divisor ("a / 0") is its own reason: "the divisor “0” is 0" would say it twice.
  if (key === "error_domain_division" && /^[\s(]*[-\u2212]?\s*(0+\.?0*|\.0+)(e[+-]?\d+)?[\s)]*$/i.test(text))
    key = "error_domain_division_literal";
  if (i18n.has(key)) return i18n.t(key, params);
  const general = `error_${error.code.replace(/-/g, "_")}`;
  return i18n.has(general) ? i18n.t(general, params) : error.message;
}

/** "3,5" around the comma at `at` (a decimal comma, as ru and et write numbers): the number and its point form. */
function decimalCommaAt(
  source: string | undefined,
  at: number | undefined,
): { comma: string; number: string } | null {
  if (source === undefined || at === undefined) return null;
  const chars = Array.from(source);
  const digits = (from: number, step: 1 | -1): string => {
    let run = "";
    for (let i = from; /^[0-9]$/.test(chars[i] ?? ""); i += step)
      run = step > 0 ? run + chars[i] : chars[i] + run;
    return run;
  };
  const whole = digits(at - 1, -1);
  const fraction = digits(at + 1, 1);
  return whole && fraction ? { comma: `${whole},${fraction}`, number: `${whole}.${fraction}` } : null;
}

// Cyrillic letters each followed by the Latin one it looks like (upright, in the field's font)
const LOOKALIKES = "аaсcеeоoрpхxуyкkіiјjѕsАAВBСCЕEНHКKМMОOРPТTХXУYІIЈJЅS";

const NUMERIC_PARAMS = ["limit", "count"]; // error params that are counts or amounts, not excerpts of code

const EXCERPT = 20; // code points of the expression an error message quotes at most (plus "…")

/**
 * The part of the expression a message quotes: the span itself, or, where the span alone says
 * nothing (a parenthesis, the end of the text), the span with what leads up to it or follows it.
 */
export function placeOf(error: ErrorFields, source: string | undefined): string {
  if (source === undefined || error.start === undefined) return "…";
  const chars = Array.from(source);
  const start = Math.min(error.start, chars.length);
  const end = Math.max(start, Math.min(error.end ?? start, chars.length));
  const reason = error.params.reason;
  if (error.code === "syntax" && reason === "paren") {
    let from = start; // with the function it opens, if any: "log(a", not "(a"
    while (from > 0 && /^[A-Za-z]$/.test(chars[from - 1] ?? "")) from--;
    return excerpt(chars.slice(from), "end"); // "(a + b…"
  }
  if (error.code === "syntax" && (reason === "unopened" || reason === "end"))
    return excerpt(chars.slice(0, end), "start"); // "…a + b)"
  return excerpt(chars.slice(start, end), "end");
}

/** A short excerpt of an expression for a sentence, cut at its end ("a * b + c * d…"). */
export function excerptOf(expression: string): string {
  return excerpt(Array.from(expression), "end");
}

/**
 * At most EXCERPT code points, whitespace collapsed, cut on the side given with "…": between terms
 * where it can ("a + a + a…", not "a + a + a +…" or "a + 12…"), else through a long token.
 */
function excerpt(chars: string[], cut: "start" | "end"): string {
  const text = Array.from(chars.join("").replace(/\s+/g, " ").trim());
  if (text.length <= EXCERPT) return text.join("");
  const inToken = (a: string | undefined, b: string | undefined): boolean =>
    TOKEN.test(a ?? "") && TOKEN.test(b ?? "");
  if (cut === "end") {
    let k = EXCERPT - 1;
    while (k > 0 && inToken(text[k - 1], text[k])) k--;
    const kept = text
      .slice(0, k || EXCERPT - 1)
      .join("")
      .replace(BETWEEN_END, "");
    return `${kept || text.slice(0, EXCERPT - 1).join("")}…`;
  }
  let k = text.length - EXCERPT + 1;
  while (k < text.length && inToken(text[k - 1], text[k])) k++;
  const kept = text
    .slice(k < text.length ? k : text.length - EXCERPT + 1)
    .join("")
    .replace(BETWEEN_START, "");
  return `…${kept || text.slice(text.length - EXCERPT + 1).join("")}`;
}
const TOKEN = /^[A-Za-z0-9_.]$/;
const BETWEEN_END = /[\s+\-*/×·\u2212]+$/; // a cut never ends on an operator
const BETWEEN_START = /^[\s+*/×·]+/; // nor starts on one (a leading minus may be a sign)

const isPrintableAscii = (char: string): boolean => /^[\x21-\x7e]$/.test(char);

/** Characters a reader cannot see or tell apart in quotes: controls, format marks, spaces, combining marks, fillers. */
export function isInvisible(char: string): boolean {
  return /^[\p{Cc}\p{Cf}\p{Z}\p{M}\p{Co}\p{Cn}\p{Cs}\u115f\u1160\u2800\u3164\uffa0]$/u.test(char);
}

/** "U+200B": how a message names a character by its code point. */
export function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}
