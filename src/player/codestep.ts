// Code in step: the page's listing of the Value class highlights the line that is running —
// `child.grad += local_grad * v.grad` during backward, the operation's own line during forward.
// Lines are found by their text (no markup is changed), and marked with the CSS Custom Highlight
// API where the browser has it; the sandbox also prints the line itself under the graph.

import type { Op } from "../inference/types";

export type CodeKey = Op | "seed" | "backward";

/** A piece of text that identifies each line in src/microgpt_annotated.py. */
const NEEDLES: Partial<Record<CodeKey, string>> = {
  "+": "self.data + other.data",
  "*": "self.data * other.data",
  "**": "power(self.data, other)",
  exp: "math.exp(self.data)",
  log: "math.log(self.data)",
  relu: "max(0.0, self.data)",
  "-": "self + (-other)",
  "/": "self * other**-1",
  neg: "self * -1",
  seed: "self.grad = 1.0",
  backward: "child.grad += local_grad * v.grad",
};

export const HIGHLIGHT_NAME = "tinydag-line";

interface Line {
  start: number;
  end: number;
  text: string;
}

export class CodeListing {
  private static owner: object | null = null;
  private shown: CodeKey | null = null; // the key whose line is highlighted now
  private readonly lines: Line[];

  private constructor(private readonly code: HTMLElement) {
    this.lines = [];
    let start = 0;
    for (const text of (code.textContent ?? "").split("\n")) {
      this.lines.push({ start, end: start + text.length, text });
      start += text.length + 1;
    }
  }

  /** The listing on this page that shows backward(), if any. */
  static find(doc: Document): CodeListing | null {
    const candidates = [...doc.querySelectorAll<HTMLElement>("pre > code"), ...doc.querySelectorAll<HTMLElement>("pre")];
    for (const code of candidates) {
      if (code.closest(".tdg-player")) continue;
      if ((code.textContent ?? "").includes(NEEDLES.backward!)) return new CodeListing(code);
    }
    return null;
  }

  /** The source line for a key, trimmed, or null when the listing does not have it. */
  lineText(key: CodeKey): string | null {
    const line = this.lineOf(key);
    return line ? line.text.trim() : null;
  }

  private lineOf(key: CodeKey): Line | null {
    const needle = NEEDLES[key];
    if (!needle) return null;
    return this.lines.find((l) => l.text.includes(needle)) ?? null;
  }

  /** Highlight the line for `key` on behalf of `who` (the sandbox that is playing). */
  highlight(who: object, key: CodeKey | null): void {
    if (key === null) {
      this.shown = null;
      if (CodeListing.owner === who) CSS.highlights?.delete(HIGHLIGHT_NAME);
      this.code.closest("pre")?.removeAttribute("data-tinydag-line");
      return;
    }
    // Already showing this line for this sandbox: a slider drag redraws often, the line stays.
    if (CodeListing.owner === who && this.shown === key && CSS.highlights?.has(HIGHLIGHT_NAME)) return;
    CodeListing.owner = who;
    this.shown = key;
    const line = this.lineOf(key);
    const pre = this.code.closest("pre");
    if (!line) return;
    pre?.setAttribute("data-tinydag-line", String(this.lines.indexOf(line) + 1));
    if (typeof Highlight === "undefined" || !CSS.highlights) return;
    const indent = line.text.length - line.text.trimStart().length;
    const range = this.range(line.start + indent, line.end);
    if (range) CSS.highlights.set(HIGHLIGHT_NAME, new Highlight(range));
  }

  private range(start: number, end: number): Range | null {
    const walker = this.code.ownerDocument.createTreeWalker(this.code, NodeFilter.SHOW_TEXT);
    const range = this.code.ownerDocument.createRange();
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

export const ACCUMULATE_NAME = "tinydag-accumulate";
const accumulating = new WeakMap<Element, string>(); // what each strip last marked ("": nothing)

/**
 * While a gradient receives its second (third, …) contribution, the `+=` in the code strip under
 * the graph is marked: that is the line adding it to what the node already had. Called after the
 * strip's text is written for the frame (the sandbox writes it after the stage has drawn).
 */
export function markAccumulation(strip: HTMLElement, on: boolean): void {
  const text = on ? (strip.textContent ?? "") : "";
  if (accumulating.get(strip) === text) return;
  accumulating.set(strip, text);
  if (on) strip.setAttribute("data-accumulate", "");
  else strip.removeAttribute("data-accumulate");
  if (typeof Highlight === "undefined" || !CSS.highlights) return;
  const ranges: Range[] = [];
  if (on) {
    const walker = strip.ownerDocument.createTreeWalker(strip, NodeFilter.SHOW_TEXT);
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
  if (ranges.length) CSS.highlights.set(ACCUMULATE_NAME, new Highlight(...ranges));
  else CSS.highlights.delete(ACCUMULATE_NAME);
}
