// Edge-label placement (placement.ts): labels never cover a card or each other and never leave the
// stage; the full form is preferred, the short form and a leader line are fallbacks, and a label
// with no room at all is left out. Pure geometry, no DOM.
import assert from "node:assert/strict";
import { test } from "node:test";
import { type LabelRequest, overlaps, type Placement, placeLabels, type Point, pointAt, type Rect } from "../../src/player/placement";

const line = (a: Point, b: Point, n = 24): Point[] => Array.from({ length: n + 1 }, (_, i) => ({ x: a.x + ((b.x - a.x) * i) / n, y: a.y + ((b.y - a.y) * i) / n }));
const FULL = { w: 120, h: 16 };
const SHORT = { w: 40, h: 16 };

function label(id: string, path: Point[], sizes = [FULL, SHORT]): LabelRequest {
  return { id, sizes, path, prefer: 0.5 };
}

function assertClean(placements: Placement[], cards: Rect[], width: number, height: number): void {
  for (const p of placements) {
    assert.ok(p.box.x >= 0 && p.box.y >= 0 && p.box.x + p.box.w <= width && p.box.y + p.box.h <= height, `${p.id} leaves the stage`);
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
  const [p] = placeLabels({ width: 320, height: 100, cards, edges: [path], labels: [label("e", path, [FULL, { w: 50, h: 16 }])] });
  assert.equal(p!.form, 1);
  assertClean([p!], cards, 320, 100);
  const none = placeLabels({ width: 320, height: 100, cards, edges: [path], labels: [label("e", path, [FULL, { w: 70, h: 16 }])] });
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
  assert.deepEqual(roomy.map((p) => p.form), [0, 0, 0], "with room every label is upgraded to its full form");
  const calm = placeLabels({ width: 400, height: 200, cards: [], edges: paths, labels, upgrade: 1, keepShort: true });
  assert.deepEqual(calm.map((p) => p.form), [0, 1, 1], "the first (the hand-off now) stays full");
});

test("placement is a pure function of its input", () => {
  const paths = [0, 1, 2].map((i) => line({ x: 10, y: 20 + 30 * i }, { x: 200, y: 120 - 30 * i }));
  const input = { width: 220, height: 150, cards: [{ x: 90, y: 55, w: 40, h: 30 }], edges: paths, labels: paths.map((p, i) => label(`e${i}`, p)), upgrade: 1 };
  assert.deepEqual(placeLabels(input), placeLabels(structuredClone(input)));
});

test("pointAt walks an evenly sampled path", () => {
  const path = line({ x: 0, y: 0 }, { x: 100, y: 50 }, 4);
  assert.deepEqual(pointAt(path, 0.5), { x: 50, y: 25 });
  assert.deepEqual(pointAt(path, 1), { x: 100, y: 50 });
  assert.deepEqual(pointAt(path, 0), { x: 0, y: 0 });
});
