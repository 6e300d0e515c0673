// Stage fitting and edge shapes: everything fits a phone, parallel edges are two arcs, merging
// inputs arrive at separate ports, long edges run clear of the cards they pass.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTimeline, type Timeline } from "../../src/inference/index";
import { CARD_COMPACT, CARD_FULL } from "../../src/player/cards";
import { corridor, edgeCurves, edgeMesh, pathPoint, pointOnEdge } from "../../src/player/curves";
import { CARD_WORLD_WIDTH, DEFAULT_LIMITS, fitStage } from "../../src/player/fit";

const NEURON = buildTimeline("relu(w * x + v * y + b)", { w: 0.5, x: 2, v: -1, y: 0.5, b: 0.25 });
const DEFAULT = buildTimeline("(a + b) * c", { a: 2, b: -3, c: 10 });

function extentPx(t: Timeline, width: number, card = CARD_COMPACT): { left: number; right: number; scale: number } {
  const fit = fitStage(t, width, card);
  const xs = [...fit.positions.values()].map((p) => p[0] * fit.ppu);
  const half = (CARD_WORLD_WIDTH / 2) * fit.ppu;
  return { left: Math.min(...xs) - half + width / 2, right: Math.max(...xs) + half + width / 2, scale: fit.scale };
}

test("a five-column graph fits a phone's stage with readable cards", () => {
  const { left, right, scale } = extentPx(NEURON, 356);
  assert.ok(left >= 0 && right <= 356, `${left}..${right}`);
  assert.ok(scale >= 0.8, `card scale ${scale}`);
});

test("on a wide stage the columns spread so edge labels fit, cards stay at natural size", () => {
  const fit = fitStage(DEFAULT, 690, CARD_FULL);
  assert.ok(fit.kx > 1);
  assert.ok(fit.scale <= 1);
  const { left, right } = extentPx(DEFAULT, 690, CARD_FULL);
  assert.ok(left >= 0 && right <= 690);
});

test("a graph with many rows spreads them for its labels when the width limits the zoom", () => {
  const fit = fitStage(NEURON, 688, CARD_FULL, { ...DEFAULT_LIMITS, maxHeight: 680 });
  const gap = (1.5 * fit.ky - fit.cardHeight) * fit.ppu; // px free between the cards of neighbouring rows
  assert.ok(fit.ky > 1, `ky ${fit.ky}`);
  assert.ok(gap >= DEFAULT_LIMITS.rowGap - 1, `${gap.toFixed(1)} px between rows`);
  assert.ok(fit.height <= 680);
  const short = fitStage(NEURON, 688, CARD_FULL, { ...DEFAULT_LIMITS, maxHeight: 400 });
  assert.ok(short.height <= 400, "never taller than allowed");
  assert.ok(short.ky < fit.ky);
});

test("a * a: two distinct arcs into two ports of the same card", () => {
  const t = buildTimeline("a * a", { a: 3 });
  const fit = fitStage(t, 600, CARD_FULL);
  const [e0, e1] = edgeCurves(t, fit.positions, fit.cardHeight);
  const m0 = pathPoint(e0!, 0.5);
  const m1 = pathPoint(e1!, 0.5);
  assert.ok(Math.abs(m0[1] - m1[1]) > 0.5, `arcs ${m0[1]} and ${m1[1]} must be apart`);
  assert.notDeepEqual(e0!.tip, e1!.tip);
});

test("merging branches converge into separate ports of their operation", () => {
  const fit = fitStage(DEFAULT, 600, CARD_FULL);
  const curves = edgeCurves(DEFAULT, fit.positions, fit.cardHeight);
  const plus = curves.filter((c) => c.to === "n2");
  assert.equal(plus.length, 2);
  assert.ok(plus[0]!.tip[1] > plus[1]!.tip[1], "slot 0 arrives above slot 1");
  assert.ok(Math.abs(plus[0]!.tip[1] - plus[1]!.tip[1]) < 0.5, "ports are close: the branches converge");
});

test("an edge that skips a column runs clear of the card in between", () => {
  const fit = fitStage(DEFAULT, 600, CARD_FULL);
  const c = edgeCurves(DEFAULT, fit.positions, fit.cardHeight).find((e) => e.from === "n3")!;
  const plus = fit.positions.get("n2")!;
  for (let i = 0; i <= 50; i++) {
    const p = pointOnEdge(c, i / 50);
    const insideX = Math.abs(p[0] - plus[0]) < CARD_WORLD_WIDTH / 2;
    if (insideX) assert.ok(Math.abs(p[1] - plus[1]) > fit.cardHeight / 2, `passes behind a + b at ${p}`);
  }
  assert.ok(Math.abs(Math.abs(corridor(0, 0, [[-0.3, 0.3]], 0.3)) - 0.6) < 1e-9);
  assert.equal(corridor(-1.5, 0, [[-0.3, 0.3]], 0.3), -1.5);
  // a card grown downwards (local derivatives shown) pushes the corridor below its new bottom
  assert.equal(corridor(-1, -1, [[-0.3, 0.3]], 0.3), -1);
  assert.ok(Math.abs(corridor(-1, -1, [[-1.2, 0.3]], 0.3) - -1.5) < 1e-9);
});

test("edge meshes are well-formed", () => {
  const fit = fitStage(NEURON, 800, CARD_FULL);
  for (const curve of edgeCurves(NEURON, fit.positions, fit.cardHeight)) {
    const mesh = edgeMesh(curve);
    const vertices = mesh.position.length / 3;
    assert.equal(mesh.normal.length, mesh.position.length);
    assert.equal(mesh.along.length, vertices);
    assert.ok(mesh.index.every((i) => i < vertices));
    assert.ok(mesh.position.every(Number.isFinite));
  }
});
