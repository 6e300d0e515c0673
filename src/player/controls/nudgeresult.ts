// The line under Nudge check, written by the engine's bundle (engine.ts), which measures every nudge:
// what it measured in words (model/nudge.ts), and what it compared as data (the tests read them).

import type { NudgeState } from "../model/model";
import { nudgeWords } from "../model/nudge";
import { setAttr, setText } from "../shared/dom";
import type { I18n } from "../shared/i18n";

/** Write `nudge`'s answer in `out` (nothing, for none); the words for the caption under the graph, if any. */
export function writeNudge(
  out: HTMLElement,
  nudge: NudgeState | null,
  reached: boolean,
  i18n: I18n,
  expression: string,
): string | null {
  const words = nudge ? nudgeWords(nudge, reached, i18n, expression) : null;
  setText(out, words?.text ?? "");
  setAttr(out, "data-state", words?.state ?? null);
  setAttr(out, "data-ratio", words?.ratio === undefined ? null : String(words.ratio));
  setAttr(out, "data-grad", words?.grad === undefined ? null : String(words.grad));
  out.toggleAttribute("data-rounding", words?.rounding ?? false);
  return words?.caption ?? null;
}
