// What an error says (ErrorView, errorview.ts): its message in the page's language and the marks on
// the offending characters. Only an error needs them, and in the player every error comes from its
// engine, so the player takes them from the engine's bundle (engine.ts); the widgets, which carry
// their engine, directly.

import type { ErrorPayload } from "../../inference/types";
import { h } from "../shared/dom";
import { errorMessage, isInvisible } from "../shared/i18n";

export interface ErrorText {
  message: typeof errorMessage;
  /** `text` with the error's characters in a mark (spans count code points, as in the engine). */
  marked(text: string, error: ErrorPayload): (string | HTMLElement)[];
}

export const errorText: ErrorText = {
  message: errorMessage,
  marked(text, error) {
    const chars = Array.from(text);
    const start = Math.min(error.start ?? 0, chars.length);
    const end = Math.max(start, Math.min(error.end ?? start, chars.length));
    const marked = chars.slice(start, end).join("");
    // An empty span (the end of the text) or an invisible character still gets a visible mark.
    const unseen = marked === "" || Array.from(marked).every(isInvisible);
    return [
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
    ];
  },
};
