// How numbers appear. The rule (README, "For translators"): a number that is code (cards, edge labels,
// the node table, the listing) is written as code is, with a dot: formatNumber. A number inside a
// sentence (narration, the nudge check, messages) is written as the page's language writes it
// (0,001 in Russian and Estonian): proseNumber.

import { NUMBER_PATTERN } from "../../inference/parse";

const MINUS = "\u2212"; // the typographic minus the lesson text uses
const SIGNED_NUMBER = new RegExp(`^[-+]?${NUMBER_PATTERN}$`); // the engine's literal, with a sign

/** 10 -> "10", -1 -> "−1", 1/3 -> "0.3333", 123456 -> "1.235e5", 0.000123456 -> "1.235e−4", -0 -> "0". */
export function formatNumber(x: number): string {
  return formatSignificant(x, 4); // one argument: safe to pass to Array.map
}

/** A change, signed as code writes it: 0.001 -> "+0.001", -0.01 -> "−0.01" (the nudge's tabs on the cards). */
export function formatChange(x: number): string {
  return x > 0 ? `+${formatNumber(x)}` : formatNumber(x);
}

/** formatNumber with `digits` significant digits. */
function formatSignificant(x: number, digits: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "∞" : `${MINUS}∞`;
  if (x === 0) return "0"; // also -0
  const magnitude = Number(Math.abs(x).toPrecision(digits)); // round first: 9999.6 is 1e4
  let text: string;
  if (magnitude >= 1e4 || magnitude < 1e-3) {
    const [mantissa = "0", exponent = "0"] = magnitude.toExponential(digits - 1).split("e");
    text = `${stripZeros(mantissa)}e${Number(exponent)}`.replace("-", MINUS); // 1e−300, as the fields write it
  } else {
    text = stripZeros(magnitude.toPrecision(digits));
  }
  if (text === "0") return "0"; // rounded away: never show "−0"
  return x < 0 ? MINUS + text : text;
}

function stripZeros(fixed: string): string {
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

/**
 * A number inside a sentence of language `lang`: that language's decimal separator and grouping,
 * `digits` significant digits, a typographic minus. ru: -10.001 -> "−10,001", 12345 -> "12 345";
 * scientific notation only far from 1, as prose sets it (1.2e-7 -> "1,2 × 10⁻⁷" in ru, no-break
 * spaces). The lesson's languages are written out here, with the digits Intl.NumberFormat writes
 * (tests/ts compare the two): the first
 * Intl.NumberFormat of a page loads the browser's locale data, a task of 20 ms and more.
 */
export function proseNumber(x: number, lang: string, digits = 4): string {
  if (Number.isNaN(x) || !Number.isFinite(x) || x === 0) return formatSignificant(x, digits);
  const magnitude = Math.abs(x);
  const far = magnitude >= 1e9 || magnitude < 1e-4;
  const style = PROSE[lang.toLowerCase().split("-")[0] ?? ""];
  const text = style
    ? writeProse(magnitude, digits, far, style)
    : numberFormat(lang, digits, far).format(magnitude);
  if (/^0([.,]0*)?$/.test(text)) return "0"; // rounded away: never "−0"
  return x < 0 ? MINUS + text : text;
}

interface ProseStyle {
  decimal: string;
  group: string;
  minGrouping: number; // digits before the first group separator is used: 2 writes 1234 but 12 345
}

const NBSP = "\u00a0";
const PROSE: Record<string, ProseStyle> = {
  en: { decimal: ".", group: ",", minGrouping: 1 },
  ru: { decimal: ",", group: NBSP, minGrouping: 1 },
  et: { decimal: ",", group: NBSP, minGrouping: 2 },
};
const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹"; // the digits of an exponent, 10⁻¹² (+"-" is NaN: the minus)

function writeProse(magnitude: number, digits: number, scientific: boolean, style: ProseStyle): string {
  if (scientific) {
    const [mantissa = "0", exponent = "0"] = magnitude.toExponential(digits - 1).split("e");
    const power = `${+exponent}`.replace(/./g, (c) => SUPERSCRIPT[+c] ?? "⁻");
    return `${stripZeros(mantissa).replace(".", style.decimal)}${NBSP}×${NBSP}10${power}`;
  }
  const [whole = "0", fraction = ""] = stripZeros(decimalDigits(magnitude, digits)).split(".");
  let grouped = whole;
  if (whole.length >= 4 + style.minGrouping - 1) grouped = whole.replace(/\B(?=(\d{3})+$)/g, style.group);
  return fraction ? `${grouped}${style.decimal}${fraction}` : grouped;
}

/** `x` (positive) rounded to `digits` significant digits, in plain decimal digits (no exponent). */
function decimalDigits(x: number, digits: number): string {
  const rounded = Number(x.toPrecision(digits));
  const exponent = Number(rounded.toExponential().split("e")[1]);
  return exponent >= digits - 1 ? rounded.toFixed(0) : rounded.toFixed(Math.min(100, digits - 1 - exponent));
}

const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: string, digits: number, scientific: boolean): Intl.NumberFormat {
  const key = `${lang}|${digits}|${scientific}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang, {
      maximumSignificantDigits: digits,
      notation: scientific ? "scientific" : "standard",
    });
    formats.set(key, format);
  }
  return format;
}

/** Reads what formatNumber wrote (and plain ASCII input): "−1" -> -1. */
export function parseNumber(text: string): number {
  const normalized = text
    .trim()
    .replace(/\u2212/g, "-")
    .replace(",", ".");
  if (normalized === "" || !SIGNED_NUMBER.test(normalized)) return NaN;
  return Number(normalized);
}

/**
 * "incoming × local = contribution" in the digits the cards show (4 significant), with "=" where the
 * shown factors multiply to the shown contribution and "≈" where rounding shows (0.1488 × 2.718 ≈
 * 0.4046: the grad on the card is 0.1488, so the label writes that, not a fifth digit of its own).
 */
export function productText(incoming: number, local: number, contribution: number, lang?: string): string {
  // Which sign to write is decided on the code form; a sentence (`lang` given) then writes the same
  // digits the way its language does.
  const write = (x: number): string => (lang ? proseNumber(x, lang) : formatNumber(x));
  const sign = equalsSign(shownAs(incoming) * shownAs(local), contribution);
  return `${write(incoming)} × ${operand(write(local))} ${sign} ${write(contribution)}`;
}

/**
 * A number written after an operator: in parentheses when negative, so "1 × (−1)" never reads as
 * "1 × −1", or in a sentence's scientific form, "× (1,2 × 10⁻⁵)" (one rule for the cards' sums, the
 * labels, the sentences and page 00's gears).
 */
export const operand = (text: string): string => (/^−|×/.test(text) ? `(${text})` : text);

/** A number as the cards show it, read back: what a reader works with (4 significant digits). */
export const shownAs = (x: number): number => parseNumber(formatNumber(x));

/**
 * The number rule: "=" where what the reader can work out from the numbers shown (`worked`) is the
 * result as shown, "≈" where rounding hides a digit.
 */
export const equalsSign = (worked: number, result: number): "=" | "≈" =>
  formatNumber(worked) === formatNumber(result) ? "=" : "≈";

/** "a × b = c" as ["a × ", "b", " = c"] (or ≈); ["text", "", ""] when it is no product. */
export function productParts(text: string): [string, string, string] {
  const times = text.indexOf(" × ");
  const equals = times < 0 ? -1 : text.slice(times + 3).search(/ [=≈] /);
  if (equals < 0) return [text, "", ""];
  const end = times + 3 + equals;
  return [text.slice(0, times + 3), text.slice(times + 3, end), text.slice(end)];
}
