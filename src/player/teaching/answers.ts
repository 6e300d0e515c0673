// Check's answers at their fields (predict.ts), written by the on-demand bundle (engine.ts), which
// judges them anyway (verdict.ts judgeAll): each field's verdict, and the words under the fields; then,
// each frame drawn, which of them show yet (reachAnswers). predict.ts `forget` undoes what this writes
// (data-verdict, data-due, data-pending, aria-invalid, aria-describedby, the message's words,
// tdg-sr-only and data-kind): the two change together.

import type { Timeline } from "../../inference/types";
import type { SandboxState } from "../model/model";
import { eventNode, scheduleOf } from "../model/timing";
import { judgeAll } from "../model/verdict";
import { h, setAttr, setText } from "../shared/dom";
import type { I18n } from "../shared/i18n";
import type { Field } from "./predict";

/**
 * Judge every field against `timeline`, mark it (a verdict, or why it cannot be read) and write the
 * outcome in `summary`; true when every field was judged. When one cannot be read, `clear` first
 * forgets every earlier verdict, and the focus goes to the first such field once the outcome is
 * written (a screen reader hears the outcome, then the field). A verdict shows when its gradient has
 * come (reachAnswers).
 */
export function showAnswers(
  fields: readonly Field[],
  summary: HTMLElement,
  timeline: Timeline,
  i18n: I18n,
  clear: () => void,
): boolean {
  const typed = fields.map((f) => ({ name: f.name, text: f.input.value }));
  const { answers, summary: outcome, judged } = judgeAll(typed, timeline, i18n);
  if (!judged) clear();
  // How many of the backward pass's events have landed once a leaf's gradient is whole: its verdict
  // and words wait for them (walkthrough 21: the answers were read at step 1).
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
  summary.dataset.tally = outcome;
  if (!judged) fields[answers.findIndex(Boolean)]?.input.focus();
  return judged;
}

/**
 * Each frame drawn after Check: a field's verdict and words show once the backward pass has brought
 * its leaf its whole gradient (`completed` events landed), as its card shows it; none while the
 * forward pass plays (its cards have no gradient), all with the final gradients. The outcome ("2 of 3
 * right") waits for the last of them (walkthrough 22: it told of a wrong answer before any mark).
 * The first wrong answer's words come into view as they arrive while the pulse plays, if the graph is
 * in view: Check showed the whole graph for the pulse, the words under it may be below the window
 * (walkthrough 22: on a phone).
 */
export function reachAnswers(
  fields: readonly Field[],
  summary: HTMLElement,
  s: SandboxState,
  completed: number,
  i18n: I18n,
): void {
  let waiting = false;
  const wrong = fields.find((f) => f.row.dataset.verdict === "wrong");
  for (const { row, message } of fields) {
    if (!row.dataset.verdict) continue;
    const pending = !s.finalGradients && (s.direction === "forward" || completed < Number(row.dataset.due));
    waiting ||= pending;
    if (pending === row.hasAttribute("data-pending")) continue;
    row.toggleAttribute("data-pending", pending);
    message.toggleAttribute("data-pending", pending);
    if (!pending && s.playing && message === wrong?.message) bringIntoView(message);
  }
  setText(summary, waiting ? i18n.t("predict_plays") : (summary.dataset.tally ?? ""));
}

/** Scroll `message` into the window's bottom when the sandbox's graph is in view (the reader watches it). */
function bringIntoView(message: HTMLElement): void {
  const stage = message.closest("[data-sandbox]")?.querySelector(".tdg-stage")?.getBoundingClientRect();
  if (!stage || stage.bottom <= 0 || stage.top >= innerHeight) return;
  const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
  message.scrollIntoView({ block: "nearest", behavior: reduced ? "auto" : "smooth" });
}
