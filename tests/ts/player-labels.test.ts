// Edge-label placement (placement.ts): labels never cover a card or each other and never leave the
// stage; the full form is preferred, the short form and a leader line are fallbacks, and a label
// with no room at all is left out. Pure geometry, no DOM. Then what edges and cards say.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTimeline } from "../../src/inference/index";
import { madeText, sumText, termsAfter } from "../../src/player/model/arithmetic";
import { edgeLook, widthOf } from "../../src/player/stage/encoding";
import { formatNumber } from "../../src/player/model/format";
import { frameAt, scheduleOf } from "../../src/player/model/timing";
import {
  type LabelRequest,
  overlaps,
  type Placement,
  placeLabels,
  type Point,
  pointAt,
  type Rect,
} from "../../src/player/stage/placement";

const line = (a: Point, b: Point, n = 24): Point[] =>
  Array.from({ length: n + 1 }, (_, i) => ({
    x: a.x + ((b.x - a.x) * i) / n,
    y: a.y + ((b.y - a.y) * i) / n,
  }));
const FULL = { w: 120, h: 16 };
const SHORT = { w: 40, h: 16 };

function label(id: string, path: Point[], sizes = [FULL, SHORT]): LabelRequest {
  return { id, sizes, path, prefer: 0.5 };
}

function assertClean(placements: Placement[], cards: Rect[], width: number, height: number): void {
  for (const p of placements) {
    assert.ok(
      p.box.x >= 0 && p.box.y >= 0 && p.box.x + p.box.w <= width && p.box.y + p.box.h <= height,
      `${p.id} leaves the stage`,
    );
    for (const card of cards) assert.ok(!overlaps(p.box, card), `${p.id} covers a card`);
    for (const q of placements) if (q !== p) assert.ok(!overlaps(p.box, q.box), `${p.id} covers ${q.id}`);
  }
}

test("a label with room sits on the middle of its edge, in full", () => {
  const path = line({ x: 50, y: 100 }, { x: 350, y: 100 });
  const [p] = placeLabels({ width: 400, height: 200, cards: [], edges: [path], labels: [label("e", path)] });
  assert.equal(p!.form, 0);
  assert.deepEqual(p!.box, { x: 140, y: 92, w: 120, h: 16 });
  assert.equal(p!.leader, null);
});

test("between two close cards the label moves off them: beside the edge, or out with a leader", () => {
  // Two cards 60 px apart on one row: a 120 px label cannot sit on the edge between them.
  const cards = [
    { x: 20, y: 80, w: 100, h: 60 },
    { x: 180, y: 80, w: 100, h: 60 },
  ];
  const path = line({ x: 120, y: 110 }, { x: 180, y: 110 });
  const [p] = placeLabels({ width: 300, height: 220, cards, edges: [path], labels: [label("e", path)] });
  assert.ok(p, "placed");
  assert.equal(p!.form, 0, "the full form fits above or below the cards");
  assert.ok(p!.leader, "with a leader line back to its edge");
  assertClean([p!], cards, 300, 220);
});

test("the short form when the full one fits nowhere; nothing when neither fits", () => {
  const cards = [
    { x: 0, y: 0, w: 130, h: 100 },
    { x: 190, y: 0, w: 130, h: 100 },
  ];
  const path = line({ x: 130, y: 50 }, { x: 190, y: 50 });
  const [p] = placeLabels({
    width: 320,
    height: 100,
    cards,
    edges: [path],
    labels: [label("e", path, [FULL, { w: 50, h: 16 }])],
  });
  assert.equal(p!.form, 1);
  assertClean([p!], cards, 320, 100);
  const none = placeLabels({
    width: 320,
    height: 100,
    cards,
    edges: [path],
    labels: [label("e", path, [FULL, { w: 70, h: 16 }])],
  });
  assert.deepEqual(none, []);
});

test("the first label gets the best place; later ones go around it and never overlap", () => {
  const paths = [0, 1, 2, 3, 4, 5].map((i) => line({ x: 40, y: 60 + i * 6 }, { x: 300, y: 90 + i * 4 }));
  const cards = [{ x: 140, y: 0, w: 60, h: 40 }];
  const labels = paths.map((path, i) => label(`e${i}`, path));
  const placed = placeLabels({ width: 340, height: 240, cards, edges: paths, labels, upgrade: 1 });
  assert.equal(placed[0]!.id, "e0");
  assert.equal(placed[0]!.form, 0);
  assert.ok(placed.length >= 4, `${placed.length} of 6 placed`);
  assertClean(placed, cards, 340, 240);
});

test("on a crowded stage older labels keep to their short form", () => {
  const paths = [0, 1, 2].map((i) => line({ x: 20, y: 40 + 60 * i }, { x: 380, y: 40 + 60 * i }));
  const labels = paths.map((path, i) => label(`e${i}`, path));
  const roomy = placeLabels({ width: 400, height: 200, cards: [], edges: paths, labels, upgrade: 1 });
  assert.deepEqual(
    roomy.map((p) => p.form),
    [0, 0, 0],
    "with room every label is upgraded to its full form",
  );
  const calm = placeLabels({
    width: 400,
    height: 200,
    cards: [],
    edges: paths,
    labels,
    upgrade: 1,
    keepShort: true,
  });
  assert.deepEqual(
    calm.map((p) => p.form),
    [0, 1, 1],
    "the first (the hand-off now) stays full",
  );
});

test("placement is a pure function of its input", () => {
  const paths = [0, 1, 2].map((i) => line({ x: 10, y: 20 + 30 * i }, { x: 200, y: 120 - 30 * i }));
  const input = {
    width: 220,
    height: 150,
    cards: [{ x: 90, y: 55, w: 40, h: 30 }],
    edges: paths,
    labels: paths.map((p, i) => label(`e${i}`, p)),
    upgrade: 1,
  };
  assert.deepEqual(placeLabels(input), placeLabels(structuredClone(input)));
});

test("pointAt walks an evenly sampled path", () => {
  const path = line({ x: 0, y: 0 }, { x: 100, y: 50 }, 4);
  assert.deepEqual(pointAt(path, 0.5), { x: 50, y: 25 });
  assert.deepEqual(pointAt(path, 1), { x: 100, y: 50 });
  assert.deepEqual(pointAt(path, 0), { x: 0, y: 0 });
});

// ---- what the pictures say: edge looks, the += sum, how a value was made, numbers in transit ----

test("edge width grows with |contribution| on a log scale; 0 is dead and thinnest", () => {
  const xs = [1e-4, 0.001, 0.01, 0.5, 1, 2, 10, 1000, 1e5];
  const widths = xs.map(widthOf);
  for (let i = 1; i < widths.length; i++) assert.ok(widths[i]! >= widths[i - 1]!, `${xs[i]}`);
  assert.ok(widthOf(0.001) < widthOf(1) && widthOf(1) < widthOf(1000), "0.001, 1 and 1000 all read apart");
  assert.equal(widthOf(-10), widthOf(10));
  assert.ok(widthOf(0) <= widthOf(0.001));
  assert.deepEqual(edgeLook(0).sign, "zero");
  assert.deepEqual(edgeLook(-0).sign, "zero");
  assert.deepEqual(edgeLook(-2).sign, "negative");
  assert.deepEqual(edgeLook(null), { width: 1, sign: null });
});

test("a running sum reads like the += builds it", () => {
  assert.equal(sumText([2]), null);
  assert.equal(sumText([2, 2]), "2 + 2 = 4");
  assert.equal(sumText([2, -3]), "2 − 3 = −1");
  assert.equal(sumText([1, 1, 1, 1, 1]), "1 + 1 + … + 1 = 5");
  // A tab with no room for the whole sum: the term just added and the total.
  assert.equal(sumText([-0.1353, -0.3333, 2], formatNumber, true), "… + 2 = 1.531");
  assert.equal(sumText([2, -3], formatNumber, true), "… − 3 = −1");
  // Walkthrough 9: the rounded terms shown add to −0.4686, not to the −0.4687 shown: "≈", as products do.
  assert.equal(sumText([-0.1353352832366127, -0.3333333333333333]), "−0.1353 − 0.3333 ≈ −0.4687");
  assert.equal(sumText([0.1, 0.2]), "0.1 + 0.2 = 0.3"); // 0.30000000000000004 is shown as 0.3
  const square = buildTimeline("a * a", { a: 2 });
  const last = square.backward[square.backward.length - 1]!;
  assert.deepEqual(termsAfter(square, last), [2, 2]);
});

test("a card says how its value was made", () => {
  const t = buildTimeline("(a + b) * c + relu(a - b) + b ** 2", { a: 2, b: -3, c: 10 });
  const made = t.nodes.map((n) => madeText(n, t));
  assert.ok(made.includes("2 + (−3) = −1"), made.join(" | "));
  assert.ok(made.includes("−1 × 10 = −10"), made.join(" | "));
  assert.ok(made.includes("relu(5) = 5"), made.join(" | "));
  assert.ok(made.includes("(−3) ** 2 = 9"), made.join(" | "));
  assert.equal(madeText(t.nodes.find((n) => n.op === "var")!, t), null);
  // Rounded inputs that do not give the rounded result: "≈" (1/3 × 3 shown as 0.3333 × 3 = 1).
  const third = buildTimeline("a / 3 * b + exp(c) + c ** 0.5", { a: 1, b: 3, c: 0.123449 });
  const written = third.nodes.map((n) => madeText(n, third));
  assert.ok(written.includes("0.3333 × 3 ≈ 1"), written.join(" | "));
  assert.ok(written.includes("0.1234 ** 0.5 ≈ 0.3514"), written.join(" | ")); // √0.1234 = 0.35128…
  assert.ok(written.includes("1 ÷ 3 = 0.3333"), written.join(" | "));
  assert.ok(written.includes("exp(0.1234) = 1.131"), written.join(" | ")); // exp(0.1234) = 1.1313…
  // A negative exponent as typed, with the typographic minus every other number has (walkthrough 27:
  // "a ** −1 = 2 ** -1 = 0.5")
  const power = buildTimeline("a ** -1 + a ** (-0.5)", { a: 2 });
  const powers = power.nodes.map((n) => madeText(n, power));
  assert.ok(powers.includes("2 ** −1 = 0.5"), powers.join(" | "));
  assert.ok(
    powers.some((m) => m?.startsWith("2 ** (−0.5) ")),
    powers.join(" | "),
  );
});

test("frames carry the current event's numbers and the contributions each node has received", () => {
  const t = buildTimeline("a * a", { a: 2 });
  const backward = scheduleOf(t, "backward");
  const a = t.variables[0]!.node;
  const mid = frameAt(t, backward, 1.3);
  assert.equal(mid.carried.length, 1);
  assert.ok(!mid.carried[0]!.landed && mid.carried[0]!.at > 0 && mid.carried[0]!.at < 1);
  assert.equal(mid.carried[0]!.to, a);
  const end = frameAt(t, backward, backward.duration);
  assert.deepEqual(end.nodes.get(a)!.received, [2, 2]);
  assert.ok(end.carried[0]!.landed && end.carried[0]!.at === 0, "landed: at the child's end");
  const forward = scheduleOf(t, "forward");
  const computed = frameAt(t, forward, 0.5);
  assert.equal(computed.carried.length, 2, "a value travels on each input");
  assert.ok(computed.carried.every((c) => c.number === 2 && c.kind === "forward"));
});

test("a kept neighbourhood cache gives the same placements as a fresh search, as the labels' sizes change", () => {
  // A crowded fan of edges around two cards, its labels growing and shrinking as a slider drag
  // changes their numbers (one label far wider than the cache's margin, so it searches anew).
  const paths = [0, 1, 2, 3, 4, 5, 6, 7].map((i) =>
    line({ x: 30 + 7 * i, y: 40 + i * 22 }, { x: 620 - 9 * i, y: 260 - i * 19 }),
  );
  const cards = [
    { x: 250, y: 110, w: 90, h: 50 },
    { x: 420, y: 40, w: 90, h: 50 },
  ];
  const near = new Map();
  const answered: Placement[][] = [];
  for (const widths of [
    [120, 96, 150, 88, 200, 64, 120, 96],
    [128, 96, 150, 80, 200, 72, 520, 96],
    [112, 104, 142, 88, 208, 64, 120, 104],
    [120, 96, 150, 88, 200, 64, 120, 96], // back to the first sizes: the first answers, not searched again
  ]) {
    const labels = paths.map((path, i) =>
      label(`e${i}`, path, [
        { w: widths[i]!, h: 16 },
        { w: 44, h: 16 },
      ]),
    );
    const input = { width: 660, height: 300, cards, edges: paths, labels, upgrade: 2 };
    const fresh = placeLabels(input);
    const kept = placeLabels({ ...input, near });
    assert.deepEqual(kept, fresh);
    assert.ok(fresh.length >= 5, `${fresh.length} of 8 placed`);
    answered.push(kept);
  }
  assert.equal(near.size, 8, "one neighbourhood per label, kept across the frames");
  const [first, , , again] = answered;
  assert.ok(
    again!.every((p, i) => p.box === first![i]!.box),
    "the same question gets the kept answer",
  );
  assert.ok(
    answered[1]!.some((p, i) => p.box !== first![i]!.box),
    "a changed size is searched again",
  );
  // A card's note grows (its numbers changed) under the labels' first answers: they are searched again.
  const labels = paths.map((path, i) =>
    label(`e${i}`, path, [
      { w: [120, 96, 150, 88, 200, 64, 120, 96][i]!, h: 16 },
      { w: 44, h: 16 },
    ]),
  );
  const spot = first![0]!.box; // a card's note now stands where the first label sat
  for (const grown of [
    [...cards, { x: spot.x, y: spot.y, w: spot.w, h: 10 }],
    [{ x: spot.x - 20, y: spot.y - 5, w: spot.w + 40, h: 30 }, cards[1]!],
  ]) {
    const input = { width: 660, height: 300, cards: grown, edges: paths, labels, upgrade: 2 };
    const fresh = placeLabels(input);
    assert.deepEqual(placeLabels({ ...input, near }), fresh);
    assertClean(fresh, grown, 660, 300);
    assert.notDeepEqual(fresh.find((p) => p.id === "e0")?.box, spot, "the grown card moved the label");
  }
});
