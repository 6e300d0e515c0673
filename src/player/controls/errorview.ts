// How an engine error shows: a localized message under the expression that names the place
// inside its sentence, and the offending characters marked on a mirror of the text behind the input.

import type { ErrorPayload, Timeline } from "../../inference/types";
import { h, setAttr, setText } from "../shared/dom";
import { errorMessage, type I18n, isInvisible } from "../shared/i18n";

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
    // A numeric error of the graph on screen: its card is flagged, and the graph keeps its last values.
    const onScreen = flagged !== null && timeline.nodes.some((n) => n.id === flagged);
    const text = errorMessage(this.i18n, error, this.input.value);
    setText(this.message, onScreen ? `${text} ${this.i18n.t("error_kept")}` : text);
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
    // An empty span (the end of the text) or an invisible character still gets a visible mark.
    const unseen = marked === "" || Array.from(marked).every(isInvisible);
    this.mirror.replaceChildren(
      chars.slice(0, start).join(""),
      h(
        "mark",
        {
          class: "tdg-error-span",
          "data-start": start,
          "data-end": end,
          "data-unseen": unseen ? "true" : null,
        },
        marked || "\u00a0",
      ),
      chars.slice(end).join(""),
    );
    this.mirror.scrollLeft = this.input.scrollLeft;
  }
}
