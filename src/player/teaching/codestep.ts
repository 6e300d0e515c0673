// Code in step: the page's listing of the Value class highlights the line that is running —
// `child.grad += local_grad * v.grad` during backward, the operation's own line during forward.
// The listing is the class's first part and, folded just below it, "the rest of the class" (the
// derived operations live there). Lines are found by their text (no markup is changed), and marked
// with the CSS Custom Highlight API where the browser has it; the sandbox also prints the line itself
// under the graph, and on wide screens an excerpt of the method that runs (CodeExcerpt), so the code
// is where the eye is.

import { LOOKS } from "../../inference/ops";
import type { Op } from "../../inference/types";
import { h, setAttr } from "../shared/dom";

export type CodeKey = Op | "seed" | "backward";

/** A piece of text that identifies each line in src/microgpt_annotated.py: each operation's (its row in LOOKS), the seed's and backward's. */
const needleOf = (key: CodeKey): string | null =>
  key === "seed"
    ? "self.grad = 1.0"
    : key === "backward"
      ? "child.grad += local_grad * v.grad"
      : LOOKS[key].code;

export const HIGHLIGHT_NAME = "tinydag-line";
const ACCUMULATE_NAME = "tinydag-accumulate";
let styled = false;

const owners = new Map<string, object>(); // who set each of the page's highlights (a sandbox, a strip)

/**
 * Marks `ranges` as highlight `name` on behalf of `who`. The highlights' colours join the page only now, with the first
 * mark: while any stylesheet has a ::highlight() rule, Chromium works out highlight styles for every
 * element in every style recalculation, and Material's start-up restyles the whole page several times
 * (each took half as long again with the two rules in player.css).
 */
function mark(name: string, ranges: Range[], who: object): void {
  owners.set(name, who);
  if (!styled) {
    styled = true;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(
      `::highlight(${HIGHLIGHT_NAME}){background-color:#ffab4061}::highlight(${ACCUMULATE_NAME}){background-color:var(--tdg-grad-color,#e8590c);color:var(--tdg-bg,#fff)}`,
    );
    document.adoptedStyleSheets.push(sheet);
  }
  CSS.highlights.set(name, new Highlight(...ranges));
}

/** Take highlight `name` away, if `who` set it: another sandbox's (or strip's) mark stays. */
function unmark(name: string, who: object): void {
  if (owners.get(name) !== who) return;
  owners.delete(name);
  CSS.highlights?.delete(name);
}

interface Line {
  code: HTMLElement; // the listing part it is in
  index: number; // its line number there, from 0
  start: number; // its offsets in that part's text
  end: number;
  text: string;
}

export class CodeListing {
  private shown: CodeKey | null = null; // the key whose line is highlighted now
  private readonly lines: Line[];

  private constructor(private readonly parts: HTMLElement[]) {
    this.lines = [];
    for (const code of parts) {
      let start = 0;
      (code.textContent ?? "").split("\n").forEach((text, index) => {
        this.lines.push({ code, index, start, end: start + text.length, text });
        start += text.length + 1;
      });
    }
  }

  /** The listing on this page that shows backward(), if any, with the rest of the class folded after it. */
  static find(doc: Document): CodeListing | null {
    const candidates = [
      ...doc.querySelectorAll<HTMLElement>("pre > code"),
      ...doc.querySelectorAll<HTMLElement>("pre"),
    ];
    for (const code of candidates) {
      if (code.closest(".tdg-player")) continue;
      if (!(code.textContent ?? "").includes(needleOf("backward")!)) continue;
      const fold = (code.closest(".highlight") ?? code.closest("pre"))?.nextElementSibling;
      const rest = fold?.tagName === "DETAILS" ? fold.querySelector<HTMLElement>("pre > code") : null;
      return new CodeListing(rest ? [code, rest] : [code]);
    }
    return null;
  }

  /**
   * The method whose line runs for `key`: its `def` line down to its last line, as indexes into the
   * listing's lines. A longer method shows its last EXCERPT_MAX_LINES lines, where backward()'s seed
   * and `+=` both are, so the excerpt keeps one size while the pulse moves between them (or, if the
   * running line lies above those, the lines around it).
   */
  methodOf(key: CodeKey): { first: number; last: number; running: number } | null {
    const line = this.lineOf(key);
    if (!line) return null;
    const running = this.lines.indexOf(line);
    // Up to the `def` that encloses the line: one indented less than every line between them
    // (backward()'s nested `def build(v)` is not the method its loop runs in).
    let first = running;
    let floor = indentOf(line.text);
    let found = false;
    while (!found && first > 0 && this.lines[first - 1]!.code === line.code) {
      first -= 1;
      const text = this.lines[first]!.text;
      if (!text.trim()) continue;
      found = /^\s*def\s/.test(text) && indentOf(text) < floor;
      floor = Math.min(floor, indentOf(text));
    }
    if (!found) return null;
    let last = running;
    for (let i = first + 1; i < this.lines.length && this.lines[i]!.code === line.code; i += 1) {
      const text = this.lines[i]!.text;
      if (!text.trim()) continue;
      if (indentOf(text) <= indentOf(this.lines[first]!.text)) break;
      last = i;
    }
    if (last - first + 1 > EXCERPT_MAX_LINES && running > last - EXCERPT_MAX_LINES) {
      first = last - EXCERPT_MAX_LINES + 1;
    } else if (last - first + 1 > EXCERPT_MAX_LINES) {
      first = Math.max(first, running - Math.floor(EXCERPT_MAX_LINES / 2));
      last = Math.min(last, first + EXCERPT_MAX_LINES - 1);
    }
    return { first, last, running };
  }

  /**
   * Line `i` of the listing as nodes to show elsewhere: a copy of its highlighted span (the same
   * colours as the listing) without its id, or its plain text; `dedent` leading spaces removed.
   */
  lineNodes(i: number, dedent: number): (Node | string)[] {
    const line = this.lines[i];
    const span = line?.code.querySelectorAll(":scope > span[id]")[line.index];
    const text = line?.text ?? "";
    if (!span || (span.textContent ?? "").replace(/\n$/, "") !== text) return [text.slice(dedent)];
    const copy = span.cloneNode(true) as Element;
    copy.removeAttribute("id");
    for (const el of copy.querySelectorAll("[id]")) el.removeAttribute("id");
    const lead = copy.firstChild;
    if (lead?.nodeType === Node.TEXT_NODE)
      lead.textContent = (lead.textContent ?? "").replace(new RegExp(`^ {0,${dedent}}`), "");
    if (copy.lastChild?.nodeType === Node.TEXT_NODE)
      copy.lastChild.textContent = (copy.lastChild.textContent ?? "").replace(/\n$/, "");
    return [...copy.childNodes];
  }

  /** Whether line i holds code (is not blank). */
  hasCode(i: number): boolean {
    return Boolean(this.lines[i]?.text.trim());
  }

  /** The indentation of line i, in characters. */
  indentOf(i: number): number {
    return indentOf(this.lines[i]?.text ?? "");
  }

  /** The source line for a key, trimmed, or null when the listing does not have it. */
  lineText(key: CodeKey): string | null {
    const line = this.lineOf(key);
    return line ? line.text.trim() : null;
  }

  private lineOf(key: CodeKey): Line | null {
    const needle = needleOf(key);
    if (!needle) return null;
    return this.lines.find((l) => l.text.includes(needle)) ?? null;
  }

  /** Highlight the line for `key` on behalf of `who` (the sandbox that is playing). */
  highlight(who: object, key: CodeKey | null): void {
    if (key === null) {
      this.shown = null;
      unmark(HIGHLIGHT_NAME, who);
      for (const code of this.parts) code.closest("pre")?.removeAttribute("data-tinydag-line");
      return;
    }
    // Already showing this line for this sandbox: a slider drag redraws often, the line stays.
    if (owners.get(HIGHLIGHT_NAME) === who && this.shown === key && CSS.highlights?.has(HIGHLIGHT_NAME))
      return;
    this.shown = key;
    const line = this.lineOf(key);
    if (!line) return;
    for (const code of this.parts) {
      if (code === line.code) code.closest("pre")?.setAttribute("data-tinydag-line", String(line.index + 1));
      else code.closest("pre")?.removeAttribute("data-tinydag-line");
    }
    if (typeof Highlight === "undefined" || !CSS.highlights) return;
    const indent = line.text.length - line.text.trimStart().length;
    const range = this.range(line.code, line.start + indent, line.end);
    if (range) mark(HIGHLIGHT_NAME, [range], who);
  }

  private range(code: HTMLElement, start: number, end: number): Range | null {
    const walker = code.ownerDocument.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    const range = code.ownerDocument.createRange();
    let offset = 0;
    let started = false;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const length = node.textContent?.length ?? 0;
      if (!started && start <= offset + length) {
        range.setStart(node, start - offset);
        started = true;
      }
      if (started && end <= offset + length) {
        range.setEnd(node, end - offset);
        return range;
      }
      offset += length;
    }
    return null;
  }
}

const EXCERPT_MAX_LINES = 5; // backward()'s tail: the seed, the loop and its return

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

/**
 * Beside the graph, the method of the listing that runs now (`backward()` during the backward pulse,
 * the operation's method during forward), its running line marked. It keeps the method last shown
 * when nothing runs, so the panel does not come and go (and the page does not jump) as the pulse
 * starts and ends. Phones hide it (player.css): the one-line strip under the graph is enough there.
 */
export class CodeExcerpt {
  readonly element: HTMLElement;
  private readonly code: HTMLElement;
  private method = ""; // "first-last" of the method shown
  private rows: HTMLElement[] = [];
  private first = 0;
  private running: number | null = null; // listing line marked now

  constructor(
    private readonly listing: CodeListing,
    label: string,
  ) {
    this.code = h("code", {});
    this.element = h(
      "figure",
      { class: "tdg-excerpt", "data-role": "code-excerpt" },
      h("figcaption", { class: "tdg-field-label" }, label),
      h("pre", {}, this.code),
    );
    this.show("backward");
    this.show(null);
  }

  /** Show the method that runs `key`'s line with that line marked; null: nothing runs now. */
  show(key: CodeKey | null): void {
    const method = key ? this.listing.methodOf(key) : null;
    if (method) {
      const name = `${method.first}-${method.last}`;
      if (name !== this.method) this.build(method.first, method.last, name);
    }
    const running = method ? method.running : null;
    if (running === this.running) return;
    this.running = running;
    this.rows.forEach((row, i) => {
      setAttr(row, "data-running", this.first + i === running ? "" : null);
    });
    setAttr(this.element, "data-key", key);
  }

  private build(first: number, last: number, name: string): void {
    this.method = name;
    this.first = first;
    let dedent = Infinity; // the least indented line's indent: the excerpt keeps the code's shape
    for (let i = first; i <= last; i += 1)
      if (this.listing.hasCode(i)) dedent = Math.min(dedent, this.listing.indentOf(i));
    this.rows = [];
    for (let i = first; i <= last; i += 1)
      this.rows.push(h("span", { class: "tdg-excerpt-line" }, ...this.listing.lineNodes(i, dedent)));
    this.code.replaceChildren(...this.rows);
    this.running = null;
  }
}

// What each strip last marked ("": nothing), with the line of "Running now" it marked too.
const accumulating = new WeakMap<Element, { text: string; running: Element | null | undefined }>();

/**
 * While a gradient receives its second (third, …) contribution, the `+=` is marked where the running
 * line shows, in the code strip under the graph and in "Running now": that is the line adding it to
 * what the node already had. Called after both are written for the frame (the sandbox writes them
 * after the stage has drawn).
 */
export function markAccumulation(strip: HTMLElement, on: boolean): void {
  const running = strip.closest(".tdg-player")?.querySelector(".tdg-excerpt-line[data-running]");
  const text = on ? `${strip.textContent ?? ""}\n${running?.textContent ?? ""}` : "";
  const last = accumulating.get(strip);
  if (last && last.text === text && last.running === running) return;
  accumulating.set(strip, { text, running });
  if (on) strip.setAttribute("data-accumulate", "");
  else strip.removeAttribute("data-accumulate");
  if (typeof Highlight === "undefined" || !CSS.highlights) return;
  const ranges: Range[] = [];
  for (const root of on ? [strip, running] : []) {
    if (!root) continue;
    const walker = strip.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const value = node.textContent ?? "";
      for (let i = value.indexOf("+="); i >= 0; i = value.indexOf("+=", i + 2)) {
        const range = strip.ownerDocument.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 2);
        ranges.push(range);
      }
    }
  }
  // One highlight for the page: a strip with nothing to mark (the compact player's, drawing its own
  // frame) leaves alone the one another strip set.
  if (ranges.length) mark(ACCUMULATE_NAME, ranges, strip);
  else unmark(ACCUMULATE_NAME, strip);
}
