// How an engine error shows: a localized message under the expression that names the place
// inside its sentence, and the offending characters marked on a mirror of the text behind the input.

import type { ErrorPayload, Timeline } from "../../inference/types";
import { setAttr, setText } from "../shared/dom";
import type { I18n } from "../shared/i18n";
import type { ErrorText } from "./errortext";

// An input error at the end of the text is most often the part being typed ("relu(", "a *", "lo" on the
// way to log): its message waits until the learner pauses, leaves the field or presses Enter, instead
// of flashing red at every keystroke. Any other error shows at once, and so does its end.
export const TYPING_PAUSE_MS = 700;
const TYPED_CODES: readonly string[] = ["syntax", "unknown-function"];

/** Whether an error is about the text's unfinished end (where the learner is typing). */
export function atTypingEnd(error: ErrorPayload, text: string): boolean {
  if (!TYPED_CODES.includes(error.code)) return false;
  const count = (c: string): number => text.split(c).length - 1;
  if (error.params.reason === "paren") return count("(") > count(")"); // still open: its inside is being typed
  const end = error.end ?? error.start;
  return end !== undefined && end >= Array.from(text.trimEnd()).length;
}

/**
 * What follows a message under the expression, by its element: the way back to an exercise's setup
 * (task.ts), which the message otherwise covers while the text is broken (walk 40: a typo took "Set it
 * up again" away exactly when it was wanted).
 */
export const AFTER_MESSAGE = new WeakMap<Element, Element>();

export class ErrorView {
  private pending: (() => void) | null = null; // the message waiting for the learner's pause
  private timer = 0;
  private text = ""; // the message's words (without what follows them: AFTER_MESSAGE)

  constructor(
    private readonly input: HTMLInputElement,
    private readonly mirror: HTMLElement,
    private readonly message: HTMLElement,
    private readonly i18n: I18n,
    private readonly changed: () => void, // the message said changed (the caption repeats it)
    private readonly pressed: () => Element | null, // what the reader's pointer or finger holds down
    // The message and the marks, which only an error needs: the player's come with its engine (engine.ts)
    private readonly words: ErrorText,
  ) {
    input.addEventListener("scroll", () => (mirror.scrollLeft = input.scrollLeft));
    input.addEventListener("blur", () => this.flush());
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") this.flush();
    });
  }

  /**
   * `flagged`: the node of a numeric error when it belongs to the graph on screen; `typing`: the text
   * just changed under the learner's keys (an error at its end waits for a pause).
   */
  show(error: ErrorPayload | null, timeline: Timeline, flagged: string | null, typing = false): void {
    clearTimeout(this.timer);
    this.pending = null;
    if (error && typing && atTypingEnd(error, this.input.value)) {
      const waiting = error;
      this.pending = () => this.show(waiting, timeline, flagged);
      this.timer = window.setTimeout(() => this.flush(), TYPING_PAUSE_MS);
      error = null; // meanwhile the field reads as being typed: no message, no mark
    }
    // A numeric error of the graph on screen: its card is flagged, and the graph keeps its last values.
    const onScreen = error !== null && flagged !== null && timeline.nodes.some((n) => n.id === flagged);
    const message = error ? this.words.message(this.i18n, error, this.input.value) : "";
    const text = onScreen ? `${message} ${this.i18n.t("error_kept")}` : message;
    const after = error ? AFTER_MESSAGE.get(this.message) : undefined;
    if (
      text !== this.text ||
      (after && after.parentElement !== this.message) ||
      !error !== this.message.hidden
    )
      this.steady(() => {
        this.text = text;
        if (after) this.message.replaceChildren(text, " ", after);
        else setText(this.message, text);
        this.message.hidden = !error;
      });
    if (error) this.message.dataset.code = error.code;
    else delete this.message.dataset.code;
    setAttr(this.input, "aria-invalid", error && !flagged ? "true" : null);
    this.mark(error);
    this.changed();
  }

  /**
   * Run `change` (the message's words) with the control the reader holds in this player, below the
   * message, kept where it was on screen (walkthrough 13: log's message, four lines in Estonian where
   * the hint had two, moved the slider under a phone's finger 54 px down as a drag left the domain,
   * and up again as it came back).
   */
  private steady(change: () => void): void {
    // A touch drag does not focus the slider it moves: the press says which control is held.
    const held = this.pressed() ?? document.activeElement;
    const mine =
      held &&
      this.message.closest(".tdg-player")?.contains(held) &&
      this.message.compareDocumentPosition(held) & Node.DOCUMENT_POSITION_FOLLOWING;
    const box = mine ? held.getBoundingClientRect() : null;
    change();
    if (box && box.height > 0 && box.top >= 0 && box.top < innerHeight)
      scrollBy(0, held!.getBoundingClientRect().top - box.top);
  }

  /** The engine's message on screen now, if any (none while it waits for the learner's pause). */
  said(): string | null {
    const code = this.message.dataset.code;
    return this.message.hidden || code === undefined || code === "player" ? null : this.text;
  }

  /** The waiting message now (the learner paused, left the field or pressed Enter). */
  private flush(): void {
    const show = this.pending;
    if (show) show();
  }

  /** Underline the offending characters on the mirror (errortext.ts), or show the text plain. */
  mark(error: ErrorPayload | null): void {
    const text = this.input.value;
    if (error?.start === undefined) {
      this.mirror.replaceChildren(text); // no scroll to match: reading the field's would force a layout
      return;
    }
    this.mirror.replaceChildren(...this.words.marked(text, error));
    this.mirror.scrollLeft = this.input.scrollLeft;
  }
}
