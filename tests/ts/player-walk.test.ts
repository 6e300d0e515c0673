// The graph a keyboard and a screen reader walk (walk.ts): where each arrow key goes from each card,
// and the card's spoken name as the timeline brings values and gradients.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTimeline, type Timeline } from "../../src/inference/index";
import { makeI18n } from "../../src/player/shared/i18n";
import { frameAt, scheduleOf } from "../../src/player/model/timing";
import { cardName, firstLeaf, neighbour, type WalkKey } from "../../src/player/controls/walk";
import { strings } from "./strings-file";

const MINUS = "\u2212";
const LANGS = ["en", "ru", "et"] as const;
const DEFAULT = buildTimeline("(a + b) * c", { a: 2, b: -3, c: 10 });

const id = (t: Timeline, label: string): string => t.nodes.find((n) => n.label === label)!.id;
const label = (t: Timeline, nodeId: string | null): string | null =>
  nodeId === null ? null : t.nodes.find((n) => n.id === nodeId)!.label;
const go = (t: Timeline, from: string, key: WalkKey, cameFrom: string | null = null): string | null =>
  label(t, neighbour(t, id(t, from), key, cameFrom === null ? null : id(t, cameFrom)));

test("left goes to an input, right to the operation fed, along the graph's arrows", () => {
  const t = DEFAULT;
  assert.equal(go(t, "(a + b) * c", "ArrowLeft"), "a + b", "the first input");
  assert.equal(go(t, "a + b", "ArrowLeft"), "a");
  assert.equal(go(t, "a", "ArrowLeft"), null, "a leaf has no input: the focus stays");
  assert.equal(go(t, "a", "ArrowRight"), "a + b");
  assert.equal(go(t, "c", "ArrowRight"), "(a + b) * c");
  assert.equal(go(t, "(a + b) * c", "ArrowRight"), null, "the root feeds nothing");
  assert.equal(
    go(t, "(a + b) * c", "ArrowLeft", "c"),
    "c",
    "left goes back to the input the focus came from",
  );
  assert.equal(go(t, "a + b", "ArrowLeft", "b"), "b");
  assert.equal(go(t, "a + b", "ArrowLeft", "c"), "a", "came from elsewhere: the first input");
});

test("up and down move within the layout's column, top to bottom; Home and End to the first leaf and the root", () => {
  const t = DEFAULT;
  const columnOf = (c: number): string[] =>
    t.nodes
      .filter((n) => n.column === c)
      .sort((x, y) => x.row - y.row)
      .map((n) => n.label);
  assert.deepEqual(columnOf(0), ["a", "b"], "the leaves of a + b, in the expression's order");
  assert.deepEqual(columnOf(1), ["a + b", "c"], "c beside a + b: one column left of what it feeds");
  assert.equal(go(t, "a", "ArrowDown"), "b");
  assert.equal(go(t, "b", "ArrowUp"), "a");
  assert.equal(go(t, "a", "ArrowUp"), null, "no wrapping: the top stays the top");
  assert.equal(go(t, "b", "ArrowDown"), null);
  assert.equal(go(t, "a + b", "ArrowDown"), "c", "the next card down in the same column");
  assert.equal(go(t, "c", "ArrowUp"), "a + b");
  assert.equal(go(t, "(a + b) * c", "ArrowDown"), null, "alone in its column");
  assert.equal(label(t, firstLeaf(t)), "a");
  for (const from of ["a", "a + b", "(a + b) * c"]) {
    assert.equal(go(t, from, "End"), "(a + b) * c");
    assert.equal(go(t, from, "Home"), "a");
  }
});

test("Home goes to a variable even when a number of the expression sits above it", () => {
  for (const expression of ["2 * a", "3 + a * b", "a * 2 + 1"]) {
    const t = buildTimeline(expression, { a: 1, b: 2 });
    const first = t.nodes.find((n) => n.id === firstLeaf(t))!;
    assert.equal(first.op, "var", expression);
    const top = t.nodes
      .filter((n) => n.op === "var")
      .sort((x, y) => x.column - y.column || x.row - y.row)[0]!;
    assert.equal(first.id, top.id, expression);
  }
  const numbers = buildTimeline("2 * 3", {});
  assert.equal(
    numbers.nodes.find((n) => n.id === firstLeaf(numbers))!.op,
    "const",
    "no variable: the first number",
  );
});

test("every card is reachable from the root and back, in graphs with shared leaves and constants", () => {
  for (const expression of ["a * a + b", "relu(a * b) + a * exp(b)", "2 * a - 1 / a", "(a - b) / c ** 2"]) {
    const t = buildTimeline(expression, { a: 1.5, b: -0.5, c: 2 });
    const seen = new Set([t.root]);
    const queue = [t.root];
    while (queue.length) {
      const at = queue.shift()!;
      for (const key of ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"] as WalkKey[]) {
        for (const came of [null, ...t.nodes.map((n) => n.id)]) {
          const to = neighbour(t, at, key, came);
          if (to !== null && !seen.has(to)) {
            seen.add(to);
            queue.push(to);
          }
        }
      }
    }
    assert.equal(seen.size, t.nodes.length, `${expression}: every card can be reached`);
    const shared = t.nodes.find((n) => n.label === "a")!;
    const consumers = new Set(t.edges.filter((e) => e.from === shared.id).map((e) => e.to));
    for (const consumer of consumers)
      assert.equal(neighbour(t, consumer, "ArrowLeft", shared.id), shared.id, `${expression}: back to a`);
  }
});

test("a card's name says its operation, value, grad or 'not reached yet', and what it feeds, following the timeline", () => {
  const t = DEFAULT;
  const en = makeI18n("en", strings("en"));
  const node = (l: string) => t.nodes.find((n) => n.label === l)!;
  const forward = scheduleOf(t, "forward");
  const start = frameAt(t, forward, 0);
  assert.equal(
    cardName(node("a + b"), t, start.nodes.get(id(t, "a + b")), en),
    "a + b: sum, value not computed yet, grad not reached yet; feeds (a + b) × c",
  );
  assert.equal(
    cardName(node("a"), t, start.nodes.get(id(t, "a")), en),
    "a: variable, value 2, grad not reached yet; feeds a + b",
  );
  const backward = scheduleOf(t, "backward");
  const seeded = frameAt(t, backward, 1);
  assert.equal(
    cardName(node("(a + b) * c"), t, seeded.nodes.get(t.root), en),
    `(a + b) × c: product, value ${MINUS}10, grad 1; the output`,
  );
  assert.match(cardName(node("c"), t, seeded.nodes.get(id(t, "c")), en), /grad not reached yet/);
  const done = frameAt(t, backward, backward.duration);
  assert.equal(
    cardName(node("c"), t, done.nodes.get(id(t, "c")), en),
    `c: variable, value 10, grad ${MINUS}1; feeds (a + b) × c`,
  );
  const half = buildTimeline("a * a / b", { a: 0.5, b: 2 });
  for (const lang of LANGS) {
    const i18n = makeI18n(lang, strings(lang));
    const end = frameAt(half, scheduleOf(half, "backward"), 100);
    for (const n of half.nodes) {
      const name = cardName(n, half, end.nodes.get(n.id), i18n);
      assert.doesNotMatch(name, /\{[a-z_]+\}|NaN|undefined|card_/, `${lang}: ${name}`);
      if (lang !== "en") {
        assert.ok(!/\d\.\d/.test(name), `${lang}: numbers in a sentence the language's way: ${name}`);
        // ...and its words (walkthrough 21: a Russian voice read "value" as best it could); grad is code
        const word = { ru: "значение", et: "väärtus" }[lang as "ru" | "et"];
        assert.ok(!/\bvalue\b/.test(name) && name.includes(`, ${word} `), name);
      }
    }
  }
  const power = buildTimeline("b ** 3", { b: 2 });
  assert.match(
    cardName(power.nodes.find((n) => n.op === "**")!, power, undefined, en),
    /^b \*\* 3: power 3,/,
  );
});
