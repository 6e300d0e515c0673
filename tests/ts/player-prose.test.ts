// Numbers in sentences: proseNumber writes the lesson's languages by hand (no Intl: its first use on a
// page loads the browser's locale data, a long task). Here it must equal what Intl.NumberFormat writes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { proseNumber } from "../../src/player/model/format";

const MINUS = "\u2212";

/** The reference: the formatting proseNumber replaces, with Intl (its digits; a power of ten as prose
 * sets it, 1,2 × 10⁻⁷, where Intl writes 1,2E-7 or 1,2×10^-7). */
function viaIntl(x: number, lang: string, digits: number): string {
  const magnitude = Math.abs(x);
  const far = magnitude >= 1e9 || magnitude < 1e-4;
  const text = new Intl.NumberFormat(lang, {
    maximumSignificantDigits: digits,
    notation: far ? "scientific" : "standard",
  })
    .format(magnitude)
    .replace(
      /(?:E|×10\^)([-−]?)(\d+)$/,
      (_, minus: string, power: string) =>
        `\u00a0×\u00a010${minus ? "⁻" : ""}${[...power].map((d) => "⁰¹²³⁴⁵⁶⁷⁸⁹"[Number(d)]).join("")}`,
    );
  if (/^0([.,]0*)?$/.test(text)) return "0";
  return x < 0 ? MINUS + text : text;
}

function samples(): number[] {
  const xs = [
    1,
    1.5,
    10,
    999.96,
    9999.6,
    1234,
    12345,
    123456789,
    999999999,
    1e9,
    0.0001,
    0.00009999,
    1e-5,
    0.5,
    0.99995,
    2.5,
    0.125,
    1 / 3,
    2 / 3,
    1e15,
    1.23456e12,
    1.2e-7,
    9.99996e9,
    100,
    1000,
    10000,
    100000,
    0.001,
    0.1,
  ];
  let seed = 12345;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let i = 0; i < 3000; i++)
    xs.push((random() < 0.5 ? -1 : 1) * 10 ** (random() * 26 - 12) * (1 + random()));
  for (let i = 0; i < 500; i++) xs.push(Math.round(random() * 2_000_000) / 8); // halves and eighths: ties
  return xs;
}

test("proseNumber writes en, ru and et exactly as Intl.NumberFormat does", () => {
  const xs = samples();
  for (const lang of ["en", "ru", "et"]) {
    for (const digits of [1, 2, 3, 4, 5, 6]) {
      for (const x of xs)
        assert.equal(proseNumber(x, lang, digits), viaIntl(x, lang, digits), `${lang} ${digits} ${x}`);
    }
  }
});

test("a region subtag writes as its language; other languages still go through Intl", () => {
  assert.equal(proseNumber(-10.001, "ru-RU", 5), `${MINUS}10,001`);
  assert.equal(proseNumber(12345, "et"), "12\u00a0350");
  assert.equal(proseNumber(1234, "et"), "1234");
  assert.equal(proseNumber(1.2e-7, "et"), "1,2\u00a0×\u00a010⁻⁷");
  assert.equal(proseNumber(1234.5, "de", 5), viaIntl(1234.5, "de", 5));
  assert.equal(proseNumber(0, "ru"), "0");
  assert.equal(proseNumber(-1e-30, "ru", 4), `${MINUS}1\u00a0×\u00a010⁻³⁰`);
});
