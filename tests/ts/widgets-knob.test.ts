// The knob's numbers in node: the TypeScript engine's samples, readouts, plot bounds and prose numbers
// equal the Python engine's (tests/vectors/knob.json, written by `python -m tests.test_knob`;
// tests/test_knob.py fails while it is stale). Bit for bit, except where exp or log come from each
// platform's libm (the last bit may differ): there, to 1e-12.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseNumber, proseNumber } from "../../src/player/model/format";
import type { KnobData } from "../../src/widgets/knob";
import { snap, stepOf } from "../../src/widgets/knob";
import { curveOf, isKink, problemOf, readout, xsOf } from "../../src/widgets/knob-math";
import { fieldText } from "../../src/widgets/fields";
import {
  DIAL_SWEEP,
  dialAngle,
  dialScale,
  ticks,
  X_TICKS,
  Y_TICKS,
  yBounds,
} from "../../src/widgets/knob-plot";

interface Reading {
  x: number;
  h: number;
  y: number | null;
  y_h: number | null;
  y_left: number | null;
  slope: number | null;
  kink: boolean;
  gap: number | null;
}
interface Case {
  data: KnobData;
  readouts: Reading[];
  y_bounds: [number, number][];
  y_ticks: number[][];
  x_ticks: number[];
  dial_scales: number[];
}
interface Fixture {
  cases: Case[];
  prose: { value: number; lang: string; text: string }[];
}

const [fixture] = JSON.parse(
  readFileSync(join(process.cwd(), "tests/vectors/knob.json"), "utf8"),
) as Fixture[];
const cases = fixture!.cases;
const libm = (expression: string): boolean => /exp|log/.test(expression);

function same(actual: number | null, expected: number | null, close: boolean, what: string): void {
  if (expected === null || actual === null || !close) {
    assert.equal(actual, expected, what);
    return;
  }
  assert.ok(
    Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected)),
    `${what}: ${actual} vs ${expected}`,
  );
}

test("the fixture holds every case, gaps and a kink among them", () => {
  assert.equal(cases.length, 5);
  assert.ok(cases.some((c) => c.data.curves.some((curve) => curve.ys.includes(null))));
  assert.ok(cases.some((c) => c.readouts.some((r) => r.kink)));
});

test("the sample points are the same doubles", () => {
  for (const c of cases) assert.deepEqual(xsOf(c.data.range[0], c.data.range[1]), c.data.xs);
});

test("every curve's samples (f(x), f'(x), gaps) equal the Python engine's", () => {
  let compared = 0;
  for (const c of cases)
    for (const expected of c.data.curves) {
      const actual = curveOf(expected.expression, c.data.xs);
      const close = libm(expected.expression);
      expected.ys.forEach((y, i) => {
        same(actual.ys[i]!, y, close, `${expected.expression} at ${c.data.xs[i]}`);
        same(
          actual.slopes[i]!,
          expected.slopes[i]!,
          close,
          `slope of ${expected.expression} at ${c.data.xs[i]}`,
        );
        compared += 1;
      });
      if (!close) assert.deepEqual(actual, expected); // and bit for bit where no libm is involved
    }
  assert.ok(compared >= 201 * 8, `${compared}`);
});

test("readouts at the recorded points equal Python's, the kink included", () => {
  for (const c of cases)
    for (const r of c.readouts) {
      const got = readout(c.data.expression, r.x, r.h);
      const close = libm(c.data.expression);
      same(got.y, r.y, close, "f(x)");
      same(got.yh, r.y_h, close, "f(x + h)");
      same(got.slope, r.slope, close, "f'(x)");
      assert.equal(got.kink, r.kink, `kink of ${c.data.expression} at ${r.x}`);
      const ratio = r.y !== null && r.y_h !== null ? (r.y_h - r.y) / r.h : null;
      same(got.ratio, ratio, close, "Δy / h");
      const left = r.y !== null && r.y_left !== null ? (r.y - r.y_left) / r.h : null;
      same(got.left, left, close, "left ratio");
      same(got.gap, r.gap, close, "difference");
    }
});

test("at relu's kink the one-sided ratios stay 1 and 0 however small h gets; elsewhere they meet", () => {
  for (const h of [0.1, 0.01, 0.001, 0.0001]) {
    const r = readout("relu(x - 1)", 1, h);
    assert.ok(Math.abs(r.ratio! - 1) < 1e-9 && r.left === 0 && r.slope === 0 && r.kink);
  }
  const gaps = [0.1, 0.01, 0.001, 0.0001].map((h) => {
    const r = readout("x * x", 1.5, h);
    return Math.abs(r.ratio! - r.slope!);
  });
  for (let i = 1; i < gaps.length; i++) assert.ok(gaps[i]! < gaps[i - 1]!, `${gaps}`);
  // x * x: the difference shown is h itself; on relu's straight part it is 0, not the rounding of
  // 1.5 + h (walk 35: 1.10134e-13 at h = 0.001, growing as h shrank).
  for (const h of [0.1, 0.01, 0.001, 0.0001]) {
    assert.ok(Math.abs(readout("x * x", 1.5, h).gap! - h) < 1e-9 * Math.max(1, 1 / h) * h);
    const line = readout("relu(x - 1)", 1.5, h);
    assert.ok(line.ratio !== line.slope || h === 0.1, `${line.ratio}`); // the rounding is there...
    assert.equal(line.gap, 0); // ...and not shown as a difference
  }
  assert.ok(!isKink("x * x", 1.5) && !isKink("1 / x", 0.001) && isKink("relu(x) + relu(-x) * 3", 0));
});

test("plot bounds and ticks are the static figure's", () => {
  for (const c of cases) {
    c.data.curves.forEach((curve, i) => {
      const close = libm(curve.expression);
      const [lo, hi] = yBounds(curve.ys);
      same(lo, c.y_bounds[i]![0], close, "y0");
      same(hi, c.y_bounds[i]![1], close, "y1");
      if (!close) assert.deepEqual(ticks(lo, hi, Y_TICKS), c.y_ticks[i]);
    });
    assert.deepEqual(ticks(c.data.range[0], c.data.range[1], X_TICKS), c.x_ticks);
  }
});

test("the static figure's numbers are written as the live readout writes them", () => {
  for (const { value, lang, text } of fixture!.prose)
    assert.equal(proseNumber(value, lang, 6), text, `${value} ${lang}`);
});

test("a bad expression is refused with the engine's error or the knob's own reason", () => {
  const xs = xsOf(-2, 3);
  const syntax = problemOf("x +", xs);
  assert.equal(syntax?.kind, "engine");
  assert.equal(syntax?.kind === "engine" && syntax.error.code, "syntax");
  assert.deepEqual(problemOf("a * x", xs), { kind: "other-letter", name: "a" });
  assert.deepEqual(problemOf("log(x - 10)", xs), { kind: "nowhere" });
  assert.equal(problemOf("log(x)", xs), null); // undefined on part of the range only: a gap
  assert.equal(problemOf("x * x", xs), null);
});

test("the x slider's grid reaches round points exactly (the kink at 1)", () => {
  assert.equal(stepOf(-2, 3), 0.01);
  assert.equal(stepOf(-1, 1), 0.005);
  assert.equal(snap(1.0000000001, 0.01, -2, 3), 1);
  assert.equal(snap(0.1 + 0.2, 0.01, -2, 3), 0.3);
  assert.equal(snap(7, 0.01, -2, 3), 3);
});

test("the dial's scale is the static figure's, and its pointers turn with the slope, pegged at the ends", () => {
  for (const c of cases)
    assert.deepEqual(
      c.data.curves.map((curve) => dialScale(curve.slopes)),
      c.dial_scales,
    );
  assert.deepEqual(cases[0]!.dial_scales, [6, 6, 1]); // x * x, exp(x) / 4, relu(x - 1) on [-2, 3]
  assert.deepEqual(
    [0, 3, -6, 60].map((s) => dialAngle(s, 6)),
    [0, 67.5, -DIAL_SWEEP, DIAL_SWEEP],
  );
  // x * x at 1.5: as h shrinks, the pointer of Δy / h closes in on the pointer of dy/dx.
  const gaps = [0.5, 0.05, 0.005].map((h) => {
    const r = readout("x * x", 1.5, h);
    return Math.abs(dialAngle(r.ratio!, 6) - dialAngle(r.slope!, 6));
  });
  assert.ok(gaps[0]! > 10 && gaps[1]! < gaps[0]! && gaps[2]! < 0.2, String(gaps));
});

test("a number field writes the language's decimal sign, and the readouts' parser reads it back", () => {
  assert.deepEqual(
    [
      fieldText(1.5, "en"),
      fieldText(1.5, "ru"),
      fieldText(-0.25, "et"),
      fieldText(2, "ru"),
      fieldText(-1e-7, "en"),
    ],
    ["1.5", "1,5", "\u22120,25", "2", "\u22121e\u22127"],
  );
  for (const x of [1.5, -0.25, 0.0001, 3, -1e-7, 2.5e-8])
    for (const lang of ["en", "ru", "et"]) assert.equal(parseNumber(fieldText(x, lang)), x);
});
