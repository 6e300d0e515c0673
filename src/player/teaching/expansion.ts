// Text the cards, the table and narration show about a node: its operator glyph, a short title,
// a name for sentences, and for derived operations the primitive expansion the engine really
// built (a − b = a + (b · −1)).

import { LOOKS } from "../../inference/ops";
import type { NodeId, Primitive, Timeline, TimelineNode } from "../../inference/types";
import { formatNumber } from "../model/format";
import { nodesById } from "../model/timing";

const ELIDED = "…";

/** What the card's header shows in large type: the variable, the number, or the operator. */
export function glyphOf(node: TimelineNode): string {
  if (node.op === "var") return node.name ?? node.label;
  if (node.op === "const") return formatNumber(node.value);
  return LOOKS[node.op].glyph;
}

/** The node's whole expression, typographic and on one line: for tooltips, names and the table. */
export function fullLabel(node: TimelineNode): string {
  return prettyLabel(node.label.replace(/\s+/g, " ").trim());
}

/**
 * What the card writes after its glyph, in at most `budget` characters: what the operation applies
 * to, never the operation's own name again ("relu" + "(w × x + …)", "**" + "b" beside the exponent
 * badge, "−" + "(a + b)", "+" + "exp(a) + b ** 2"). When the text is too long, products close up
 * and then whole operands give way to "…", the deepest first, so no title ends in the middle of a
 * term; null when even the shortest form does not fit (the whole expression is on the card's
 * tooltip and in the table).
 */
export function titleOf(node: TimelineNode, timeline: Timeline, budget: number): string | null {
  if (node.inputs.length === 0) return null; // a variable or number: the glyph says it all
  const byId = nodesById(timeline);
  const operand = byId.get(node.inputs[0] ?? "");
  const { shape } = LOOKS[node.op];
  const infix = shape === "infix";
  const subject = infix ? node : operand;
  if (!subject) return null;
  const compound = subject.inputs.length > 0 || /^\s*[-\u2212]/.test(subject.label);
  const wrap = (text: string): string => (!infix && (shape === "call" || compound) ? `(${text})` : text);
  // Every part of the subject that may give way to "…": operations, and long number literals.
  const parts: { node: TimelineNode; depth: number }[] = [];
  const seen = new Set<NodeId>();
  const collect = (n: TimelineNode, depth: number): void => {
    if (seen.has(n.id)) return;
    seen.add(n.id);
    if ((n !== node && n.inputs.length > 0) || (n.op === "const" && n.label.trim().length > 5))
      parts.push({ node: n, depth });
    for (const id of n.inputs) {
      const child = byId.get(id);
      if (child && child.start >= n.start && child.end <= n.end) collect(child, depth + 1);
    }
  };
  collect(subject, 0);
  parts.sort(
    (a, b) =>
      b.depth - a.depth ||
      b.node.end - b.node.start - (a.node.end - a.node.start) ||
      b.node.start - a.node.start,
  );
  // The text with the first `count` parts given way (one inside another already given way changes
  // nothing), the outermost cut first.
  const render = (count: number): string => {
    const elided = parts.slice(0, count).map((p) => p.node);
    const chars = Array.from(subject.label);
    const cuts = elided
      .filter((e) => !elided.some((o) => o !== e && o.start <= e.start && e.end <= o.end))
      .sort((a, b) => b.start - a.start);
    for (const e of cuts) chars.splice(e.start - subject.start, e.end - e.start, ELIDED);
    return fullLabel({ ...subject, label: chars.join("") });
  };
  const fits = (text: string): boolean => Array.from(text).length <= budget;
  // Where the spaced text is too long, products and powers close up first ("w×x + v×y"): the
  // tighter binding shows in the spacing, and more of the expression stays.
  const shown = (count: number): string => {
    const text = wrap(render(count));
    return fits(text) ? text : text.replace(/ (×|\*\*) /g, "$1");
  };
  // The fewest parts, in their order, whose giving way makes it fit: found by halving, as each part
  // given way shortens the text or leaves it as it was (a 40-node graph's root has 39 parts, and every
  // card's title is made anew with each character typed).
  let [low, high] = [0, parts.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (fits(shown(middle))) high = middle;
    else low = middle + 1;
  }
  const text = shown(low);
  const bare = text.replace(/[()\s]/g, "");
  return fits(text) && bare !== ELIDED ? text : null;
}

/** The node's source text with typographic operators, e.g. "a − b". */
export function prettyLabel(label: string): string {
  return label
    .replace(/\*\*/g, "\ue000") // a private-use character, which no expression can contain
    .replace(/\*/g, "×")
    .replace(/\ue000/g, "**")
    .replace(/-/g, "−");
}

/** A name for a node in sentences: "c", "(a + b)". */
export function nameOf(node: TimelineNode): string {
  return wrapped(node, prettyLabel(node.label.trim()));
}

function wrapped(node: TimelineNode, text: string): string {
  return node.inputs.length === 0 || isWrapped(text) ? text : `(${text})`;
}

// Characters of a node's expression in the caption's sentences: a step on a phone keeps to two lines
// with its numbers ("Step 2 of 51 · (…×… + …**2) receives 1 × 1 = 1; (…×… + …**2).grad is now 1").
const SENTENCE_BUDGET = 24;

/**
 * The node's expression for a sentence: whole while short, else elided as its card's title is
 * ("…×… + …**2", "relu(a×b + …)"), the operation kept in front.
 */
export function sentenceLabel(node: TimelineNode, timeline: Timeline): string {
  const full = fullLabel(node);
  if (node.inputs.length === 0 || Array.from(full).length <= SENTENCE_BUDGET) return full;
  const { shape, glyph } = LOOKS[node.op];
  const power = ` ** ${prettyLabel(node.exponent_label ?? String(node.exponent ?? ""))}`;
  // Around the title: nothing (infix), the exponent, or the function's name or the minus in front.
  const around = shape === "infix" ? "" : shape === "power" ? power : glyph;
  const title = titleOf(node, timeline, SENTENCE_BUDGET - Array.from(around).length);
  if (title === null) return full;
  if (shape === "infix") return title;
  return shape === "power" ? `${title}${power}` : `${glyph}${title}`; // relu(…), −(…)
}

/** A name for a node in the caption's sentences: nameOf, elided as sentenceLabel is. */
export function sentenceName(node: TimelineNode, timeline: Timeline): string {
  return wrapped(node, sentenceLabel(node, timeline));
}

/** "(a + b)" or "relu(a × b)", one bracket from the start to the end; not "relu(a) × exp(b)" (walkthrough 28). */
function isWrapped(text: string): boolean {
  const open = /^[a-z]*\(/.exec(text)?.[0];
  if (!open || !text.endsWith(")")) return false;
  let depth = 0;
  for (let i = open.length - 1; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")") depth--;
    if (depth === 0 && i < text.length - 1) return false;
  }
  return true;
}

/**
 * The primitive expansion of a derived node, rendered from its `primitives`:
 * "a − b = a + (b · −1)", "a / b = a · b ** −1", "−a = a · −1". Long operands are named as in the
 * caption's sentences ("(…×… + …**2)"): whole, a big graph's expansions covered its cards (walkthrough 9).
 */
export function expansionOf(node: TimelineNode, timeline: Timeline): string | null {
  const prims = node.primitives;
  if (!node.derived || !prims || prims.length === 0) return null;
  const byId = new Map<string, Primitive>(prims.map((p) => [p.id, p]));
  const visual = nodesById(timeline);
  const render = (id: string, parent: Primitive | null): string => {
    const v = visual.get(id);
    if (v) return parent ? sentenceName(v, timeline) : sentenceLabel(v, timeline);
    const p = byId.get(id);
    if (!p) return id;
    let text: string;
    if (p.op === "const") text = formatNumber(p.value);
    else if (p.op === "**") text = `${render(p.inputs[0] ?? "", p)} ** ${formatNumber(p.exponent ?? -1)}`;
    else text = p.inputs.map((i) => render(i, p)).join(p.op === "+" ? " + " : " · ");
    const needsParens =
      parent !== null && p.op !== "const" && p.op !== parent.op && !(p.op === "**" && parent.op === "*");
    return needsParens ? `(${text})` : text;
  };
  const root = prims[prims.length - 1]!;
  return `${sentenceLabel(node, timeline)} = ${render(root.id, null)}`;
}

/** ["∂/∂a = 1", "∂/∂b = −1"]: the local derivative along each input edge of a node. */
export function localsOf(node: TimelineNode, timeline: Timeline): string[] {
  const visual = nodesById(timeline);
  return timeline.edges
    .filter((e) => e.to === node.id)
    .sort((a, b) => a.slot - b.slot)
    .map((e) => {
      const from = visual.get(e.from);
      return `∂/∂${from ? sentenceName(from, timeline) : e.from} = ${formatNumber(e.local)}`;
    });
}

/**
 * An expression as pieces a line may break between: before each operator outside parentheses, so
 * "(a − b) / c = (a − b) · c ** −1" wraps as "(a − b) / c =" … and never inside "(a − b)" or "c ** −1".
 */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (
      c === " " &&
      depth === 0 &&
      /^[=+−·×/] /.test(text.slice(i + 1, i + 3)) &&
      text.slice(i + 1, i + 3) !== "**"
    ) {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms.filter((t) => t.length > 0);
}
