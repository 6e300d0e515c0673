// Check's answers at their fields (predict.ts), written by the on-demand bundle (engine.ts), which
// judges them anyway (verdict.ts judgeAll): each field's verdict, and the words under the fields.
// predict.ts `forget` undoes what this writes (data-verdict, aria-invalid, aria-describedby, the
// message's words, tdg-sr-only and data-kind): the two change together.

import type { Timeline } from "../../inference/types";
import { eventNode, scheduleOf } from "../model/timing";
import { judgeAll } from "../model/verdict";
import { h, setAttr, setText } from "../shared/dom";
import type { I18n } from "../shared/i18n";
import type { Field } from "./predict";

/**
 * Judge every field against `timeline`, mark it (a verdict, or why it cannot be read) and write the
 * outcome in `summary`; true when every field was judged. When one cannot be read, `clear` first
 * forgets every earlier verdict, and the focus goes to the first such field once the outcome is
 * written (a screen reader hears the outcome, then the field). `replaying`: the backward pass plays
 * now, and the outcome says so.
 */
export function showAnswers(
  fields: readonly Field[],
  summary: HTMLElement,
  timeline: Timeline,
  i18n: I18n,
  clear: () => void,
  replaying: boolean,
): boolean {
  const typed = fields.map((f) => ({ name: f.name, text: f.input.value }));
  const { answers, summary: outcome, judged } = judgeAll(typed, timeline, i18n, replaying);
  if (!judged) clear();
  // How many of the backward pass's events have landed once a leaf's gradient is whole: its verdict
  // and words wait for them (predict.ts `reach`; walkthrough 21: the answers were read at step 1).
  const due = new Map(scheduleOf(timeline, "backward").events.map((event, k) => [eventNode(event), k + 1]));
  const leaves = new Map(timeline.variables.map((v) => [v.name, v.node]));
  fields.forEach((field, i) => {
    const answer = answers[i];
    if (!answer) return;
    const { kind, lead, lines } = answer;
    if (kind !== "unreadable") {
      field.row.dataset.verdict = field.input.dataset.verdict = kind;
      field.row.dataset.due = String(due.get(leaves.get(field.name) ?? "") ?? 0);
    }
    setAttr(field.input, "aria-invalid", kind === "unreadable" ? "true" : null);
    // "Right" is a ✓ inside its field (panels.css), its sentence for screen readers; a wrong answer's
    // chain-rule paths each on a line of its own.
    const message = field.message;
    message.classList.toggle("tdg-sr-only", kind === "right");
    message.replaceChildren(
      lead,
      ...lines.flatMap((line) => [" ", h("span", { class: "tdg-predict-path" }, line)]),
    );
    message.hidden = false;
    message.dataset.kind = kind;
    setAttr(field.input, "aria-describedby", message.id);
  });
  setText(summary, outcome);
  if (!judged) fields[answers.findIndex(Boolean)]?.input.focus();
  return judged;
}
