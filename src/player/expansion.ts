// Text the cards and narration show about a node: its operator glyph, a short name, and for
// derived operations the primitive expansion the engine really built (a − b = a + (b · −1)).

import type { Primitive, Timeline, TimelineNode } from "../inference/types";
import { formatNumber } from "./format";

const GLYPHS: Record<string, string> = { "+": "+", "*": "×", "-": "−", "/": "÷", neg: "−x", "**": "**", exp: "exp", log: "log", relu: "relu" };

/** What the card's header shows in large type: the variable, the number, or the operator. */
export function glyphOf(node: TimelineNode): string {
  if (node.op === "var") return node.name ?? node.label;
  if (node.op === "const") return formatNumber(node.value);
  return GLYPHS[node.op] ?? node.op;
}

/** The node's source text with typographic operators, e.g. "a − b". */
export function prettyLabel(label: string): string {
  return label.replace(/\*\*/g, "\u0000").replace(/\*/g, "×").replace(/\u0000/g, "**").replace(/-/g, "−");
}

/** A name for a node in sentences: "c", "(a + b)". */
export function nameOf(node: TimelineNode): string {
  const text = prettyLabel(node.label.trim());
  if (node.inputs.length === 0 || isWrapped(text)) return text;
  return `(${text})`;
}

function isWrapped(text: string): boolean {
  if (!text.startsWith("(") || !text.endsWith(")")) return /^[a-z]+\(.*\)$/.test(text);
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")") depth--;
    if (depth === 0 && i < text.length - 1) return false;
  }
  return true;
}

/**
 * The primitive expansion of a derived node, rendered from its `primitives`:
 * "a − b = a + (b · −1)", "a / b = a · b ** −1", "−a = a · −1".
 */
export function expansionOf(node: TimelineNode, timeline: Timeline): string | null {
  const prims = node.primitives;
  if (!node.derived || !prims || prims.length === 0) return null;
  const byId = new Map<string, Primitive>(prims.map((p) => [p.id, p]));
  const visual = new Map(timeline.nodes.map((n) => [n.id, n]));
  const render = (id: string, parent: Primitive | null): string => {
    const v = visual.get(id);
    if (v) return parent ? nameOf(v) : prettyLabel(v.label);
    const p = byId.get(id);
    if (!p) return id;
    let text: string;
    if (p.op === "const") text = formatNumber(p.value);
    else if (p.op === "**") text = `${render(p.inputs[0] ?? "", p)} ** ${formatNumber(p.exponent ?? -1)}`;
    else text = p.inputs.map((i) => render(i, p)).join(p.op === "+" ? " + " : " · ");
    const needsParens = parent !== null && p.op !== "const" && p.op !== parent.op && !(p.op === "**" && parent.op === "*");
    return needsParens ? `(${text})` : text;
  };
  const root = prims[prims.length - 1]!;
  return `${prettyLabel(node.label)} = ${render(root.id, null)}`;
}

/** ["∂/∂a = 1", "∂/∂b = −1"]: the local derivative along each input edge of a node. */
export function localsOf(node: TimelineNode, timeline: Timeline): string[] {
  const visual = new Map(timeline.nodes.map((n) => [n.id, n]));
  return timeline.edges
    .filter((e) => e.to === node.id)
    .sort((a, b) => a.slot - b.slot)
    .map((e) => {
      const from = visual.get(e.from);
      return `∂/∂${from ? nameOf(from) : e.from} = ${formatNumber(e.local)}`;
    });
}
