// Stage fitting and edge shapes: everything fits a phone, parallel edges are two arcs, merging
// inputs arrive at separate ports, long edges run clear of the cards they pass.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTimeline, type Timeline } from "../../src/inference/index";
import { CARD_COMPACT, CARD_FULL } from "../../src/player/stage/cards";
import { termsOf } from "../../src/player/teaching/expansion";
import { corridor, edgeCurves, edgeMesh, pathPoint, pointOnEdge } from "../../src/player/stage/curves";
import { CARD_WORLD_WIDTH, DEFAULT_LIMITS, fitStage } from "../../src/player/stage/fit";
import { clampPan, moveToShow } from "../../src/player/stage/viewport";

const NEURON = buildTimeline("relu(w * x + v * y + b)", { w: 0.5, x: 2, v: -1, y: 0.5, b: 0.25 });
const DEFAULT = buildTimeline("(a + b) * c", { a: 2, b: -3, c: 10 });

function extentPx(
  t: Timeline,
  width: number,
  card = CARD_COMPACT,
): { left: number; right: number; scale: number } {
  const fit = fitStage(t, width, card);
  const xs = [...fit.positions.values()].map((p) => p[0] * fit.ppu);
  const half = (CARD_WORLD_WIDTH / 2) * fit.ppu;
  return {
    left: Math.min(...xs) - half + width / 2,
    right: Math.max(...xs) + half + width / 2,
    scale: fit.scale,
  };
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

test("edges into one card arrive in the order of their inputs' heights, so they never cross there", () => {
  // The layout puts log(a) above (a + b) * c, next to its leaf a: the root's first input is the lower.
  const t = buildTimeline("(a + b) * c + log(a)", { a: 2, b: -3, c: 10 });
  const fit = fitStage(t, 600, CARD_FULL);
  const root = t.nodes.find((n) => n.label === "(a + b) * c + log(a)")!;
  const [first, second] = root.inputs.map((id) => fit.positions.get(id)![1]);
  assert.ok(second! > first!, "the second input sits higher");
  const into = edgeCurves(t, fit.positions, fit.cardHeight).filter((c) => c.to === root.id);
  const tip = (from: string): number => into.find((c) => c.from === from)!.tip[1];
  assert.ok(tip(root.inputs[1]!) > tip(root.inputs[0]!), "the higher input arrives at the upper port");
  // a * a: one source, two edges: the slots keep their order.
  const square = buildTimeline("a * a", { a: 3 });
  const sq = edgeCurves(square, fitStage(square, 600, CARD_FULL).positions);
  assert.ok(sq[0]!.tip[1] > sq[1]!.tip[1]);
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
    assert.equal(mesh.offset.length, mesh.position.length);
    assert.equal(mesh.role.length, vertices);
    assert.equal(mesh.along.length, vertices);
    assert.ok(mesh.index.every((i) => i < vertices));
    assert.ok(mesh.position.every(Number.isFinite));
    // in a batch (edges.ts) the same mesh counts its vertices from where it lies in the shared buffers
    const placed = edgeMesh(curve, 1000);
    assert.deepEqual(placed.position, mesh.position);
    assert.deepEqual(
      [...placed.index],
      [...mesh.index].map((i) => i + 1000),
    );
  }
});

// ---- readable up to the node limit: cards keep a minimum size, the stage pans over the rest ----

const MUL39 = buildTimeline(Array(39).fill("a").join(" * "), { a: 2 });
const MIXED = buildTimeline("relu(w * x + v * y + b) * relu(a * c - d) + exp(e / f) * log(g + h)", {});

test("cards never shrink below the minimum scale: a big graph becomes a world wider than its stage", () => {
  for (const [t, width, card] of [
    [MUL39, 688, CARD_FULL],
    [MUL39, 358, CARD_COMPACT],
    [MIXED, 358, CARD_COMPACT],
  ] as const) {
    const fit = fitStage(t, width, card, { ...DEFAULT_LIMITS, maxHeight: 640, minScale: 0.8 });
    assert.ok(fit.scale >= 0.8 - 1e-9, `scale ${fit.scale}`);
    assert.ok(fit.height <= 640);
    assert.ok(fit.world.width > width || fit.world.height > fit.height, "there is more graph than stage");
    assert.ok(
      [...fit.positions.values()].every((p) => p[2] === 0),
      "a panned graph lies flat",
    );
  }
  const small = fitStage(DEFAULT, 688, CARD_FULL, { ...DEFAULT_LIMITS, minScale: 0.8 });
  assert.ok(
    small.world.width <= 688 + 2 && small.world.height <= small.height + 2,
    "a small graph fits as before",
  );
});

test("grown cards (local derivatives) make the world taller", () => {
  const derived = buildTimeline("(a - b) / c", { a: 5, b: 2, c: 4 });
  const plain = fitStage(derived, 358, CARD_COMPACT);
  // ÷ sits a row above the lowest card: a panel of 200 px under it reaches further down than c
  const grown = fitStage(derived, 358, CARD_COMPACT, DEFAULT_LIMITS, new Map([["n4", 200]]));
  assert.ok(grown.world.height > plain.world.height + 60, `${grown.world.height} vs ${plain.world.height}`);
});

test("pan: clamped to its range; the smallest move that shows a box", () => {
  assert.deepEqual(clampPan({ x: 500, y: -80 }, { x: 120, y: 40 }), { x: 120, y: -40 });
  assert.deepEqual(clampPan({ x: 3, y: 4 }, { x: 0, y: 0 }), { x: 0, y: 0 });
  assert.deepEqual(moveToShow({ x: 30, y: 30, w: 50, h: 30 }, 300, 200, 20), { x: 0, y: 0 });
  assert.deepEqual(
    moveToShow({ x: 10, y: 30, w: 50, h: 30 }, 300, 200, 20),
    { x: -10, y: 0 },
    "keeps a margin",
  );
  assert.deepEqual(moveToShow({ x: 280, y: 30, w: 50, h: 30 }, 300, 200, 20), { x: 50, y: 0 });
  assert.deepEqual(moveToShow({ x: -40, y: 190, w: 50, h: 30 }, 300, 200, 20), { x: -60, y: 40 });
  // Wider than the stage: its middle, or the part it is about, with the margin
  const wide = { x: -200, y: 30, w: 600, h: 30 };
  assert.deepEqual(moveToShow(wide, 300, 200, 20), { x: -50, y: 0 });
  assert.deepEqual(moveToShow(wide, 300, 200, 20, { x: -200, y: 30, w: 50, h: 30 }), { x: -220, y: 0 });
  assert.deepEqual(moveToShow(wide, 300, 200, 20, { x: 100, y: 30, w: 50, h: 30 }), { x: 0, y: 0 });
});

test("an expansion breaks only between terms, never inside parentheses or a power", () => {
  assert.deepEqual(termsOf("(a − b) / c = (a − b) · c ** −1"), ["(a − b)", "/ c", "= (a − b)", "· c ** −1"]);
  assert.deepEqual(termsOf("∂/∂(a − b) = 0.25"), ["∂/∂(a − b)", "= 0.25"]);
  assert.deepEqual(termsOf("−a = a · −1"), ["−a", "= a", "· −1"]);
});

test("a long chain wraps into bands like lines of text, and no edge runs through a card", () => {
  for (const [width, card] of [
    [688, CARD_FULL],
    [358, CARD_COMPACT],
  ] as const) {
    const fit = fitStage(MUL39, width, card, { ...DEFAULT_LIMITS, maxHeight: 640, minScale: 0.78 });
    assert.ok(fit.bands, "wrapped");
    const bands = new Set(fit.bands!.of.values());
    assert.ok(bands.size >= 5, `${bands.size} bands`);
    assert.ok(fit.world.width <= width + 2, "a band is no wider than the stage");
    const half = CARD_WORLD_WIDTH / 2;
    const curves = edgeCurves(MUL39, fit.positions, fit.cardHeight, new Map(), fit.bands);
    for (const curve of curves) {
      for (let i = 3; i <= 97; i++) {
        const p = pointOnEdge(curve, i / 100);
        for (const [id, c] of fit.positions) {
          if (id === curve.from || id === curve.to) continue;
          const inside =
            Math.abs(p[0] - c[0]) < half - 0.02 && Math.abs(p[1] - c[1]) < fit.cardHeight / 2 - 0.02;
          assert.ok(!inside, `${curve.from} -> ${curve.to} runs through ${id} at ${width} px`);
        }
      }
    }
  }
  assert.equal(
    fitStage(MIXED, 688, CARD_FULL, { ...DEFAULT_LIMITS, minScale: 0.78 }).bands,
    null,
    "many rows: no wrapping",
  );
});

// Seeded random expressions up to the node limit: at both stage widths, at the smallest card scale,
// no two cards overlap and no edge runs through a card it does not belong to.
function randomExpression(seed: number): string {
  let s = seed;
  const rnd = (): number => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const grow = (depth: number): string => {
    if (depth === 0 || rnd() < 0.25) return pick(["a", "b", "c", "d", "e", "f", "g", "h", "2"]);
    const r = rnd();
    if (r < 0.15) return `${pick(["relu", "exp", "log"])}(${grow(depth - 1)})`;
    return `(${grow(depth - 1)} ${pick(["+", "-", "*", "/"])} ${grow(depth - 1)})`;
  };
  return grow(6);
}

test("random graphs up to 40 nodes: no overlapping cards, no edge through a card", () => {
  let checked = 0;
  for (let seed = 1; checked < 60 && seed < 2000; seed++) {
    let t: Timeline;
    try {
      t = buildTimeline(randomExpression(seed), { a: 0.5, b: 1.5, c: 2, d: 3, e: 0.25, f: 4, g: 1.25, h: 5 });
    } catch {
      continue; // too many nodes, or a value outside an operation's domain
    }
    if (t.nodes.length < 12) continue;
    checked++;
    for (const [width, card] of [
      [688, CARD_FULL],
      [358, CARD_COMPACT],
    ] as const) {
      const fit = fitStage(t, width, card, { ...DEFAULT_LIMITS, maxHeight: 640, minScale: 0.78 });
      const half = CARD_WORLD_WIDTH / 2;
      const where = `${t.expression} at ${width} px`;
      const nodes = [...fit.positions];
      for (let i = 0; i < nodes.length; i++)
        for (let j = i + 1; j < nodes.length; j++) {
          const [, p] = nodes[i]!;
          const [, q] = nodes[j]!;
          const apart =
            Math.abs(p[0] - q[0]) >= 2 * half - 1e-6 || Math.abs(p[1] - q[1]) >= fit.cardHeight - 1e-6;
          assert.ok(apart, `cards ${nodes[i]![0]} and ${nodes[j]![0]} overlap: ${where}`);
        }
      for (const curve of edgeCurves(t, fit.positions, fit.cardHeight, new Map(), fit.bands)) {
        for (let k = 4; k <= 96; k++) {
          const p = pointOnEdge(curve, k / 100);
          for (const [id, c] of nodes) {
            if (id === curve.from || id === curve.to) continue;
            const inside =
              Math.abs(p[0] - c[0]) < half - 0.03 && Math.abs(p[1] - c[1]) < fit.cardHeight / 2 - 0.03;
            assert.ok(!inside, `${curve.from} -> ${curve.to} runs through ${id}: ${where}`);
          }
        }
      }
    }
  }
  assert.ok(checked >= 40, `only ${checked} graphs`);
});
