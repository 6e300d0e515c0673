// The gears widget's arithmetic in node: the TypeScript engine's chain equals the Python engine's
// (tests/vectors/gears.json, written by `python -m tests.test_gears`; tests/test_gears.py fails while
// it is stale), and a step turns each gear by its ratio.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  angleBetween,
  anglesAt,
  type Bodies,
  bodies,
  CENTER_Y,
  type Chain,
  chainAt,
  type GearsData,
  gearPath,
  IDLER_TEETH,
  PITCH,
  pairAt,
  pairTeeth,
  pointerAngle,
  snap,
  stepBetween,
  TEETH_MAX,
  TEETH_MIN,
  type Turns,
  train,
  turnArc,
  type Wheel,
} from "../../src/widgets/gears-model";

interface Case {
  data: GearsData;
  points: Chain[];
  choice_points?: Chain[][]; // per choice, at every stop (the page's block only)
}

const cases = JSON.parse(readFileSync(join(process.cwd(), "tests/vectors/gears.json"), "utf8")) as Case[];
const byInner = (inner: string): Case => cases.find((c) => c.data.inner === inner && !c.choice_points)!;
const page = cases.find((c) => c.choice_points)!;
// exp and log come from each platform's libm: the last bit may differ (README, "Hostile input").
const libm = (c: Case): boolean => /exp|log/.test(c.data.composed);
const near = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

function assertChain(actual: Chain, expected: Chain, close: boolean): void {
  for (const key of Object.keys(expected) as (keyof Chain)[]) {
    if (close)
      assert.ok(Math.abs(actual[key] - expected[key]) <= 1e-12 * Math.max(1, Math.abs(expected[key])), key);
    else assert.equal(actual[key], expected[key], `${key} at x = ${expected.x}`);
  }
}

test("the fixture holds every chain the Python tests name, at every stop of its slider", () => {
  assert.equal(cases.length, 8);
  for (const c of cases) {
    const stops = Math.round((c.data.range[1] - c.data.range[0]) / c.data.step) + 1;
    assert.equal(c.points.length, stops);
  }
});

test("the TypeScript engine computes the chain Python embedded, at the start and at every slider stop", () => {
  for (const c of cases) {
    assertChain(chainAt(c.data, c.data.x), c.data.start, libm(c));
    for (const point of c.points) assertChain(chainAt(c.data, point.x), point, libm(c));
  }
});

test("every inner function on offer computes with the TypeScript engine as Python computed it", () => {
  const { data } = page;
  assert.deepEqual(
    data.choices.map((c) => c.inner),
    ["3 * x", "-2 * x", "relu(x - 1)"],
  );
  data.choices.forEach((choice, i) => {
    const chain = { ...choice, outer: data.outer };
    assertChain(chainAt(chain, data.x), choice.start, false);
    for (const point of page.choice_points![i]!) assertChain(chainAt(chain, point.x), point, false);
  });
  const minus = chainAt({ ...data.choices[1]!, outer: data.outer }, 1); // predict (c): two minus signs
  assert.deepEqual([minus.u, minus.du_dx, minus.dy_du, minus.product, minus.backward], [-2, -2, -4, 8, 8]);
});

test("the slider's stops are the x values Python computed at", () => {
  for (const c of cases) {
    c.points.forEach((point, n) => {
      assert.equal(snap(c.data, c.data.range[0] + n * c.data.step), point.x);
    });
    assert.equal(snap(c.data, 1e9), c.data.range[1]);
    assert.equal(snap(c.data, -1e9), c.data.range[0]);
  }
});

/** Walk x along `path` as the widget does (each x snapped as a button or slider would, or typed as is). */
function walk(c: Case, path: readonly number[], typed = false): Chain[] {
  return path.map((x) => chainAt(c.data, typed ? x : snap(c.data, x)));
}

test("a gear's angle depends on its value alone: x back at the start puts every gear back at 0°", () => {
  const c = byInner("3 * x");
  const k = c.data.degrees_per_unit;
  const { start } = c.data;
  const up = Array.from({ length: 10 }, (_, i) => 1 + 0.1 * (i + 1));
  const down = Array.from({ length: 10 }, (_, i) => 2 - 0.1 * (i + 1));
  const paths: [string, Chain[]][] = [
    ["ten steps up, ten down (buttons, arrow keys)", walk(c, [...up, ...down])],
    ["the slider dragged 1 -> 3 -> -1 -> 1", walk(c, [1.5, 3, 0.2, -1, 1])],
    ["typed 1.234, 2.9, 1", walk(c, [1.234, 2.9, 1], true)],
  ];
  for (const [name, chains] of paths) {
    const end = chains[chains.length - 1]!;
    assert.equal(end.x, 1, name);
    assert.deepEqual(anglesAt(end, start, k), { x: 0, u: 0, y: 0 }, name);
  }
  // And anywhere on the way, the angle is that value's: k · (value − its value at the start).
  const at2 = anglesAt(chainAt(c.data, 2), start, k);
  assert.deepEqual(at2, { x: k * 1, u: k * 3, y: k * 27 });
  for (const chains of paths.map((p) => p[1]))
    for (const chain of chains) {
      const a = anglesAt(chain, start, k);
      assert.ok(near(a.y, k * (chain.y - 9)) && near(a.u, k * (chain.u - 3)) && near(a.x, k * (chain.x - 1)));
    }
});

test("one step from x = 1 of u = 3x, y = u²: the estimate uses the ratios at its start, y moves 1.89", () => {
  const c = byInner("3 * x");
  assert.equal(c.data.degrees_per_unit, 60);
  const start = chainAt(c.data, 1);
  assert.deepEqual([start.du_dx, start.dy_du, start.product, start.backward], [3, 6, 18, 18]);
  const step = stepBetween(start, chainAt(c.data, snap(c.data, 1.1)));
  assert.ok(near(step.dx, 0.1) && near(step.estimate.u, 0.3) && near(step.estimate.y, 1.8));
  assert.ok(near(step.actual.u, 0.3) && near(step.actual.y, 1.89)); // 10.89 − 9: the ratio grew on the way
  assert.equal(step.from, start); // its ratios are the table's before the step: 6 × 3 = 18
  const angles = anglesAt(step.to, start, 60);
  assert.ok(near(angles.x, 6) && near(angles.u, 18) && near(angles.y, 113.4));
});

test("a negative ratio turns the later gear the other way; a dead ratio leaves it still", () => {
  const negative = byInner("2 - x");
  const k = negative.data.degrees_per_unit;
  const turned = anglesAt(chainAt(negative.data, 0.75), negative.data.start, k);
  assert.ok(turned.x > 0 && turned.u < 0 && turned.y < 0); // u = 2 - x falls, y = u³ falls with it
  const minus = { ...page.data.choices[1]!, outer: page.data.outer }; // u = -2x: u turns against x
  const m = anglesAt(chainAt(minus, 1.1), page.data.choices[1]!.start, page.data.degrees_per_unit);
  assert.ok(m.x > 0 && near(m.u, -2 * m.x) && m.y > 0); // y = 4x² still grows: two minus signs
  const relu = { ...page.data.choices[2]!, outer: page.data.outer }; // u = relu(x - 1), from x = 1
  const k0 = page.data.degrees_per_unit;
  const dead = anglesAt(chainAt(relu, 0.5), chainAt(relu, 1), k0);
  assert.ok(dead.x < 0);
  assert.deepEqual([dead.u, dead.y], [0, 0]); // left of the kink relu passes nothing on
  const alive = stepBetween(chainAt(relu, 2), chainAt(relu, 2.1));
  assert.ok(alive.actual.u > 0 && alive.actual.y > 0);
});

test("a point where the chain does not compute throws the engine's error", () => {
  const data: GearsData = { ...byInner("3 * x").data, inner: "x", outer: "log(u)", composed: "log((x))" };
  assert.throws(() => chainAt(data, -0.05), /log is defined only for positive numbers/);
});

test("pointer angles run clockwise from straight up, and differences wrap to (-180, 180]", () => {
  assert.equal(pointerAngle(0, -1), 0);
  assert.equal(pointerAngle(1, 0), 90);
  assert.equal(pointerAngle(-1, 0), -90);
  assert.equal(angleBetween(170, -170), 20);
  assert.equal(angleBetween(-170, 170), -20);
  assert.equal(angleBetween(0, 180), 180);
});

test("the swept arc goes clockwise for a positive turn, counter-clockwise for a negative one, none for zero", () => {
  assert.equal(turnArc(0, 90, 10), "M0 -10 A10 10 0 0 1 10 0");
  assert.equal(turnArc(0, -90, 10), "M0 -10 A10 10 0 0 0 -10 0");
  assert.equal(turnArc(0, 270, 10), "M0 -10 A10 10 0 1 1 -10 0");
  assert.equal(turnArc(45, 0, 10), "");
  assert.match(turnArc(0, 720, 10), /A10 10 0 1 1 /); // more than a full turn: drawn as (almost) a circle
});

// ---- the gear train: sizes in the ratio's proportion, teeth that mesh, the right direction ----

type Point = [number, number];

/** A gear's outline as drawn: gearPath's points turned by `angle` (SVG rotate) about (cx, CENTER_Y). */
function outline(teeth: number, cx: number, angle: number): Point[] {
  const a = (angle * Math.PI) / 180;
  return gearPath(teeth)
    .replace(/[MZ]/g, "")
    .split(" L")
    .map((pair) => pair.trim().split(" ").map(Number) as Point)
    .map(([x, y]) => [cx + x * Math.cos(a) - y * Math.sin(a), CENTER_Y + x * Math.sin(a) + y * Math.cos(a)]);
}

function segmentsCross(p: Point, q: Point, r: Point, s: Point): boolean {
  const side = (a: Point, b: Point, c: Point): number =>
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return side(p, q, r) * side(p, q, s) < 0 && side(r, s, p) * side(r, s, q) < 0;
}

/** Two outlines overlap where an edge of one crosses an edge of the other. */
function overlap(a: Point[], b: Point[]): boolean {
  const edges = (ps: Point[]): [Point, Point][] => ps.map((p, i) => [p, ps[(i + 1) % ps.length]!]);
  return edges(a).some(([p, q]) => edges(b).some(([r, s]) => segmentsCross(p, q, r, s)));
}

const RATIOS = [3, 6, 7.8, 0.5, 1, -2, -4, -0.25, 0, 12, -36];

test("each pair's teeth are in the proportion of its ratio, as far as 7 to 42 teeth allow, and say when not", () => {
  for (const ratio of RATIOS) {
    const [driver, driven] = pairTeeth(ratio);
    assert.ok(
      driver >= TEETH_MIN && driver <= TEETH_MAX && driven >= TEETH_MIN && driven <= TEETH_MAX,
      `${ratio}`,
    );
    const pair = pairAt(ratio, 150);
    if (ratio === 0) assert.equal(driver, driven);
    else if (Math.abs(ratio) <= 6 && Math.abs(ratio) >= 1 / 6) {
      assert.ok(
        Math.abs(driver / driven - Math.abs(ratio)) <= 0.05 * Math.abs(ratio),
        `${ratio}: ${driver}/${driven}`,
      );
      assert.ok(pair.toScale);
    } else assert.ok(!pair.toScale, `${ratio} cannot be drawn to scale`); // 7.8 stops at 42 / 7
    assert.ok(pair.driver.radius / pair.driven.radius === driver / driven); // one tooth size: radius ∝ teeth
  }
  assert.deepEqual(pairTeeth(3), [42, 14]);
  assert.deepEqual(pairTeeth(-2), [42, 21]);
  assert.deepEqual(pairTeeth(0.5), [21, 42]);
});

test("pitch circles touch: directly for a negative ratio, through an idler for a positive one, apart for 0", () => {
  for (const ratio of RATIOS) {
    const { driver, driven, idler } = pairAt(ratio, 150);
    if (ratio < 0) {
      assert.equal(idler, null);
      assert.ok(Math.abs(driven.cx - driver.cx - (driver.radius + driven.radius)) < 1e-9);
    } else if (ratio > 0) {
      assert.ok(idler && Math.abs(idler.cx - driver.cx - (driver.radius + idler.radius)) < 1e-9);
      assert.ok(idler && Math.abs(driven.cx - idler.cx - (idler.radius + driven.radius)) < 1e-9);
      // Walkthrough 8: at f′(u) = 12.6 the y gear (6 teeth) was smaller than its idler (8) and read as it.
      assert.ok(
        idler && idler.radius < Math.min(driver.radius, driven.radius),
        `${ratio}: the idler is smallest`,
      );
    } else {
      const clearance = driven.cx - driver.cx - driver.radius - driven.radius - 2 * 0.32 * PITCH;
      assert.ok(idler === null && clearance > 0, "a dead ratio's gears do not touch");
    }
  }
});

test("the drawn teeth never run into each other, whatever the hands (and would, half a tooth off)", () => {
  for (const ratio of [3, -2, 0.5, -4, 6, 1]) {
    const pairs = train(ratio, -ratio);
    for (let i = 0; i < 40; i++) {
      const hands = { x: i * 13.7 - 200, u: i * -41.3 + 17, y: i * 97.1 - 3 };
      const at = bodies(pairs, hands);
      const wheels: [number, number, number][][] = pairs.map((pair, k) => {
        const drive = k === 0 ? at.x : at.u2;
        const driven = k === 0 ? at.u : at.y;
        const train: [number, number, number][] = [[pair.driver.teeth, pair.driver.cx, drive]];
        if (pair.idler) train.push([IDLER_TEETH, pair.idler.cx, at.idlers[k]!]);
        train.push([pair.driven.teeth, pair.driven.cx, driven]);
        return train;
      });
      for (const train of wheels)
        for (let w = 1; w < train.length; w++) {
          const [tl, cl, al] = train[w - 1]!;
          const [tr, cr, ar] = train[w]!;
          assert.ok(
            !overlap(outline(tl, cl, al), outline(tr, cr, ar)),
            `ratio ${ratio}, hands ${JSON.stringify(hands)}`,
          );
          assert.ok(
            overlap(outline(tl, cl, al), outline(tr, cr, ar + 180 / tr)),
            "half a tooth off collides",
          );
        }
    }
  }
});

test("a direct mesh turns the driven gear the other way, an idler keeps the way, by the teeth's ratio", () => {
  const turn = 2; // degrees of the driver
  for (const ratio of [-2, 3]) {
    const [pair] = train(ratio, 1);
    const before = bodies([pair, pair], { x: 10, u: 10 * ratio, y: 0 });
    const after = bodies([pair, pair], { x: 10 + turn, u: (10 + turn) * ratio, y: 0 });
    const expected = turn * (pair.driver.teeth / pair.driven.teeth) * Math.sign(ratio);
    assert.ok(
      Math.abs(after.u - before.u - expected) < 1e-9,
      `${ratio}: ${after.u - before.u} vs ${expected}`,
    );
    assert.ok(Math.abs(after.u - 10 * ratio - turn * ratio) < 180 / pair.driven.teeth + 1e-9); // near its hand
  }
  const [dead] = train(0, 1);
  const still = bodies([dead, dead], { x: 10, u: 0, y: 0 });
  assert.equal(bodies([dead, dead], { x: 50, u: 0, y: 0 }).u, still.u); // a dead ratio: the driven gear stands
});

test("the teeth come home with the hands: the drawing is a function of the values alone", () => {
  const pairs = train(3, 6);
  const home = bodies(pairs, { x: 0, u: 0, y: 0 });
  const away = bodies(pairs, { x: 123, u: 369, y: 2000 });
  assert.notDeepEqual(away, home);
  assert.deepEqual(bodies(pairs, { x: 0, u: 0, y: 0 }), home);
});

test("the train is drawn as gears.py draws the static figure: places, sizes, angles and outlines", () => {
  interface PyPair {
    ratio: number;
    driver: Wheel;
    driven: Wheel;
    idler: Wheel | null;
    to_scale: boolean;
    contact: number;
  }
  const py = JSON.parse(readFileSync(join(process.cwd(), "tests/vectors/gears-train.json"), "utf8")) as {
    ratios: number[];
    hands: Turns[];
    trains: [[PyPair, PyPair], Bodies[]][];
    paths: Record<string, string>;
  };
  py.ratios.forEach((ratio, i) => {
    const ours = train(ratio, py.ratios[py.ratios.length - 1 - i]!);
    const [theirs, drawn] = py.trains[i]!;
    ours.forEach((pair, k) => {
      const { to_scale, ...rest } = theirs[k]!;
      assert.deepEqual({ ...pair }, { ...rest, toScale: to_scale }, `ratio ${pair.ratio}`);
    });
    py.hands.forEach((hands, h) => {
      assert.deepEqual(bodies(ours, hands), drawn[h], `ratio ${ratio}`);
    });
  });
  for (const [teeth, path] of Object.entries(py.paths)) assert.equal(gearPath(Number(teeth)), path);
});
