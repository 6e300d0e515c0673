// How an engine error shows: a localized message under the expression, the offending characters
// marked on a mirror of the text behind the input, and (numeric errors) the node's name.

import type { ErrorPayload, Timeline } from "../inference/types";
import { h, setAttr, setText } from "./dom";
import { prettyLabel } from "./expansion";
import { errorMessage, type I18n } from "./i18n";

export class ErrorView {
  constructor(
    private readonly input: HTMLInputElement,
    private readonly mirror: HTMLElement,
    private readonly message: HTMLElement,
    private readonly i18n: I18n,
  ) {
    input.addEventListener("scroll", () => (mirror.scrollLeft = input.scrollLeft));
  }

  /** `flagged`: the node of a numeric error when it belongs to the graph on screen. */
  show(error: ErrorPayload | null, timeline: Timeline, flagged: string | null): void {
    if (!error) {
      this.message.hidden = true;
      setText(this.message, "");
      setAttr(this.input, "aria-invalid", null);
      this.mark(null);
      return;
    }
    const text = errorMessage(this.i18n, error);
    const parts: string[] = [];
    if (flagged) {
      const node = timeline.nodes.find((n) => n.id === flagged);
      parts.push(node ? `${prettyLabel(node.label)}: ${text}` : text, this.i18n.t("error_kept"));
    } else {
      parts.push(text);
      const span = spanText(this.input.value, error);
      if (span.trim()) parts.push(this.i18n.t("error_at", { text: span }));
    }
    setText(this.message, parts.join(" "));
    this.message.dataset.code = error.code;
    this.message.hidden = false;
    setAttr(this.input, "aria-invalid", flagged ? null : "true");
    this.mark(error);
  }

  /** Underline the offending characters (spans count code points, as in the engine). */
  mark(error: ErrorPayload | null): void {
    const text = this.input.value;
    if (!error || error.start === undefined) {
      this.mirror.replaceChildren(text);
      return;
    }
    const chars = Array.from(text);
    const start = Math.min(error.start, chars.length);
    const end = Math.max(start, Math.min(error.end ?? start, chars.length));
    const marked = chars.slice(start, end).join("");
    this.mirror.replaceChildren(
      chars.slice(0, start).join(""),
      h("mark", { class: "tdg-error-span", "data-start": start, "data-end": end }, marked || "\u00a0"),
      chars.slice(end).join(""),
    );
    this.mirror.scrollLeft = this.input.scrollLeft;
  }
}

export function spanText(text: string, error: ErrorPayload): string {
  if (error.start === undefined) return "";
  return Array.from(text)
    .slice(error.start, error.end ?? error.start)
    .join("");
}
