// The text companions of the graph: the table of nodes (for readers who do not see the picture)
// and the topological-order strip with the line of code running now ("code in step").

import type { NodeId, Timeline, TimelineNode } from "../../inference/types";
import type { CodeKey, CodeListing } from "../teaching/codestep";
import { h, setAttr, setText } from "../shared/dom";
import { fullLabel, glyphOf, nameOf, prettyLabel } from "../teaching/expansion";
import { formatNumber } from "../model/format";
import type { I18n } from "../shared/i18n";
import { type Frame, nodesById, type Schedule } from "../model/timing";

export class NodeTable {
  private rows = new Map<NodeId, HTMLTableCellElement[]>();

  constructor(
    private readonly body: HTMLTableSectionElement,
    private readonly i18n?: I18n, // names the operations that are words (variable, constant, negation)
  ) {}

  build(timeline: Timeline): void {
    this.rows.clear();
    this.body.replaceChildren(
      ...timeline.nodes.map((node) => {
        const cells = [
          h("th", { scope: "row" }, fullLabel(node)),
          h("td", {}, operationOf(node, this.i18n)),
          h("td", {}, "--"),
          h("td", {}, "--"),
        ];
        this.rows.set(node.id, cells);
        return h("tr", {}, ...cells);
      }),
    );
  }

  update(frame: Frame): void {
    for (const [id, cells] of this.rows) {
      const state = frame.nodes.get(id);
      if (!state) continue;
      setText(cells[2]!, state.value === null ? "--" : formatNumber(state.value));
      setText(cells[3]!, state.grad === null ? "--" : formatNumber(state.grad));
    }
  }
}

/** The table's name for a node's operation, as its card shows it: "×", "÷", "variable a", "** 2". */
export function operationOf(node: TimelineNode, i18n?: I18n): string {
  const say = (key: string, fallback: string, params: Record<string, string> = {}): string =>
    i18n?.has(key) ? i18n.t(key, params) : fallback;
  if (node.op === "var")
    return say("table_op_variable", `variable ${glyphOf(node)}`, { name: glyphOf(node) });
  if (node.op === "const")
    return say("table_op_constant", `constant ${glyphOf(node)}`, { value: glyphOf(node) });
  if (node.op === "neg") return say("table_op_negation", "− (negation)");
  if (node.op === "**") return `** ${prettyLabel(node.exponent_label ?? String(node.exponent ?? ""))}`;
  return glyphOf(node);
}

export interface CodeStep {
  key: CodeKey | null; // which line of the listing runs now
  node: NodeId | null; // the node of the topological order being processed (v in backward)
  text: string; // what the sandbox prints next to the line
}

/** What the code is doing at this frame: forward computes a node; backward hands v's grad on. */
export function codeStepOf(timeline: Timeline, schedule: Schedule, frame: Frame, i18n: I18n): CodeStep {
  const event = schedule.events[frame.current];
  const nodes = nodesById(timeline);
  // A short name stays on one line (walkthrough 31: "child = a +" then "b" on a phone); a long one may
  // break, or it would run off a phone's screen.
  const label = (id: NodeId): string => {
    const text = prettyLabel(nodes.get(id)?.label ?? id);
    return text.length > 16 ? text : text.replace(/ /g, "\u00a0");
  };
  const name = (id: NodeId): string => {
    const n = nodes.get(id);
    return n ? nameOf(n) : id;
  };
  if (event?.kind === "compute")
    return {
      key: nodes.get(event.step.node)?.op ?? null,
      node: event.step.node,
      text: i18n.t("code_forward", { node: label(event.step.node) }),
    };
  if (event?.kind === "seed")
    return { key: "seed", node: event.node, text: i18n.t("code_seed", { node: name(event.node) }) };
  if (event?.kind === "handoff")
    return {
      key: "backward",
      node: event.step.parent,
      text: i18n.t("code_backward", { node: label(event.step.parent), child: label(event.step.child) }),
    };
  return { key: null, node: null, text: "" };
}

/** Whether every bracket the line opens, it closes: a whole statement, not the first line of one. */
function balanced(line: string): boolean {
  let depth = 0;
  for (const c of line) depth += c === "(" || c === "[" ? 1 : c === ")" || c === "]" ? -1 : 0;
  return depth === 0;
}

export class TopoStrip {
  private items = new Map<NodeId, HTMLElement>();
  private readonly source: HTMLElement; // the listing's line running now
  private readonly note: HTMLElement; // "← what it does here", kept whole so the arrow never dangles
  private readonly arrow: HTMLElement; // "← ", pointing at the line (hidden with it beside "Running now")
  private readonly words: HTMLElement;

  constructor(
    private readonly list: HTMLElement,
    private readonly codeLine: HTMLElement,
  ) {
    this.source = h("span", { class: "tdg-code-source" });
    this.arrow = h("span", { class: "tdg-code-arrow" }, "←\u00a0");
    this.words = h("span", {});
    this.note = h("span", { class: "tdg-code-note" }, this.arrow, this.words);
    codeLine.replaceChildren(this.source, this.note);
    codeLine.hidden = true;
  }

  build(timeline: Timeline): void {
    this.items.clear();
    const byId = nodesById(timeline);
    this.list.replaceChildren(
      ...timeline.topo.map((id) => {
        const node = byId.get(id);
        const item = h("li", {}, node ? prettyLabel(node.label) : id);
        this.items.set(id, item);
        return item;
      }),
    );
  }

  /**
   * Mark the current node; backward walks the order in reverse, so "done" is on the other side. At a
   * pass's `end` every node is done: backward's loop also visits the leaves, whose _backward does
   * nothing, so no step of the pass stops at them (walk 36: a and b stayed unshaded).
   */
  update(
    timeline: Timeline,
    step: CodeStep,
    backward: boolean,
    listing: CodeListing | null,
    end: boolean,
  ): void {
    const at = step.node ? timeline.topo.indexOf(step.node) : -1;
    timeline.topo.forEach((id, i) => {
      const item = this.items.get(id);
      if (!item) return;
      const current = !end && id === step.node;
      const done = end || (at >= 0 && (backward ? i > at : i < at));
      setAttr(item, "data-state", current ? "current" : done ? "done" : null);
      setAttr(item, "aria-current", current ? "step" : null);
    });
    const source = step.key ? (listing?.lineText(step.key) ?? "").replace(/\s+#.*$/, "") : "";
    // A statement the listing continues on the next line (__mul__'s return) would read cut off: the
    // strip then says only what it does here.
    const line = balanced(source) ? source : "";
    setText(this.source, line && `${line} `); // the space goes with the line where it is hidden
    if (this.arrow.hidden === Boolean(line)) this.arrow.hidden = !line;
    setText(this.words, step.key ? step.text : "");
    if (this.codeLine.hidden === Boolean(step.key)) this.codeLine.hidden = !step.key;
  }
}
