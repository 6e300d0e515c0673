// Check's answers at their fields (predict.ts), written by the on-demand bundle (engine.ts), which
// judges them anyway (verdict.ts judgeAll): each field's verdict, and the words under the fields; then,
// each frame drawn, which of them show yet (reachAnswers). `forgetAnswer` undoes what showAnswers
// writes at a field (data-verdict, data-due, data-pending, aria-invalid, aria-describedby, the
// message's words, tdg-sr-only and data-kind): the two change together. Only Check writes any of it,
// so none of it is needed before the engine has loaded.

import { dimmedExpression, type SandboxState } from "../model/model";
import { gradientsDue, judgeAll, verdictWaits } from "../model/verdict";
import { h, setAttr, setText } from "../shared/dom";
import type { I18n } from "../shared/i18n";
import type { Field } from "./predict";

/**
 * Judge every field against the graph on screen, mark it (a verdict, or why it cannot be read) and
 * write the outcome in `summary`; true when every field was judged. When one cannot be read, `clear`
 * first forgets every earlier verdict, and the focus goes to the first such field once the outcome is
 * written (a screen reader hears the outcome, then the field). A verdict, its words and the tally
 * wait, hidden, until their gradients have come (reachAnswers shows them). A graph on screen that is
 * not the expression's (dimmed: the expression cannot be computed) is judged not at all: the outcome
 * says to mend the expression first.
 */
export function showAnswers(
  fields: readonly Field[],
  summary: HTMLElement,
  s: SandboxState,
  i18n: I18n,
  clear: () => void,
): boolean {
  if (dimmedExpression(s) !== null) {
    clear();
    setText(summary, i18n.t("predict_stale"));
    return false;
  }
  const timeline = s.timeline;
  const typed = fields.map((f) => ({ name: f.name, text: f.input.value }));
  const { answers, summary: outcome, judged } = judgeAll(typed, timeline, i18n);
  if (!judged) clear();
  const due = gradientsDue(timeline);
  const leaves = new Map(timeline.variables.map((v) => [v.name, v.node]));
  fields.forEach((field, i) => {
    wireVerdicts(field.input);
    delete field.input.dataset.kept; // judged, or not: no longer an answer kept from other numbers
    const answer = answers[i];
    if (!answer) return;
    const { kind, lead, lines } = answer;
    const message = field.message;
    const judgedHere = kind !== "unreadable";
    if (judgedHere) {
      field.row.dataset.verdict = field.input.dataset.verdict = kind;
      // (a leaf the pass would not reach waits for its end)
      field.row.dataset.due = String(due.get(leaves.get(field.name) ?? "") ?? timeline.backward.length + 1);
    }
    field.row.toggleAttribute("data-pending", judgedHere);
    message.toggleAttribute("data-pending", judgedHere);
    setAttr(field.input, "aria-invalid", judgedHere ? null : "true");
    // "Right" is a ✓ inside its field (panels.css), its sentence for screen readers; a wrong answer's
    // chain-rule paths each on a line of its own.
    message.classList.toggle("tdg-sr-only", kind === "right");
    message.replaceChildren(
      lead,
      ...lines.flatMap((line) => [" ", h("span", { class: "tdg-predict-path" }, line)]),
    );
    message.hidden = false;
    message.dataset.kind = kind;
    // A verdict's words describe its field once they show (a screen reader would hear them at once).
    setAttr(field.input, "aria-describedby", judgedHere ? null : message.id);
  });
  setText(summary, judged ? i18n.t("predict_waiting") : outcome);
  summary.dataset.tally = outcome;
  if (!judged) fields[answers.findIndex(Boolean)]?.input.focus();
  return judged;
}

/**
 * Each frame drawn after Check: a field's verdict and words show once the backward pass has brought
 * its leaf its whole gradient, as its card shows it (verdict.ts verdictWaits; walkthrough 21: they
 * were read at step 1). The outcome ("2 of 3 right") waits for the last of them (walkthrough 22: it
 * told of a wrong answer before any mark); not once a field is typed in again. Returned when the
 * last verdict has just shown, for the sandbox to bring into view: the first wrong answer's words, or,
 * every answer right, the outcome (walk 33: on a phone turned to landscape the marks and "3 of 3
 * right" stayed under the graph, out of sight).
 */
export function reachAnswers(
  fields: readonly Field[],
  summary: HTMLElement,
  s: SandboxState,
  completed: number,
  i18n: I18n,
): HTMLElement | null {
  let waiting = false;
  let shown = false;
  for (const { row, input, message } of fields) {
    if (!row.dataset.verdict) continue;
    const pending = verdictWaits(s, completed, Number(row.dataset.due));
    waiting ||= pending;
    if (pending === row.hasAttribute("data-pending")) continue;
    shown ||= !pending;
    row.toggleAttribute("data-pending", pending);
    message.toggleAttribute("data-pending", pending);
    setAttr(input, "aria-describedby", pending ? null : message.id);
    // A ✗ shown in the field Enter checked from: selected, as one come back to is (predict.ts), so what
    // is typed replaces it (walk 33: "-1", ✗, then "5" made "-15").
    if (!pending && row.dataset.verdict === "wrong" && input === document.activeElement) {
      input.select();
      selected.add(input);
    }
  }
  const tally = summary.dataset.tally;
  if (tally !== undefined) setText(summary, waiting ? i18n.t("predict_waiting") : tally);
  return shown && !waiting
    ? (fields.find((f) => f.row.dataset.verdict === "wrong")?.message ?? summary)
    : null;
}

/**
 * The learner types in a field after Check (predict.ts). An answer kept from other numbers gives way
 * to what is typed, whatever way it comes: a key, a paste, a drop, a word a keyboard has composed
 * (walkthrough 12: "−2" then "3" read "−23"; WebKit drops a key typed after the value is changed in
 * beforeinput, so it is done here, after the input); a deletion edits it. A verdict or a reading
 * problem goes; the outcome line then says that Check marks a changed answer, or nothing.
 */
export function typedAgain(field: Field, summary: HTMLElement, i18n: I18n, e: InputEvent): void {
  const { input, row } = field;
  const kept = input.dataset.kept;
  if (kept !== undefined && !e.isComposing) {
    delete input.dataset.kept;
    if (e.inputType.startsWith("insert")) input.value = e.data ?? input.value.replace(kept, "");
  }
  const marked = row.dataset.verdict !== undefined;
  if (!marked && field.message.hidden) return;
  forgetAnswer(field);
  setText(summary, marked ? i18n.t("predict_changed") : ""); // (walkthrough 23: it went without a word)
  delete summary.dataset.tally;
}

const wired = new WeakSet<HTMLInputElement>();
const selected = new WeakSet<HTMLInputElement>(); // a ✗ selected where the focus stayed (reachAnswers)

/**
 * What a field does with a verdict or a kept answer, wired at its first Check (before it, a field has
 * neither; predict.ts wires Enter). A caret moved into an answer kept from other numbers: the reader
 * edits it, the next key no longer replaces it (walkthrough 25: a sign could not be mended). A wrong
 * answer, come back to, is selected: what is typed replaces it, a click in it places the caret
 * (walkthrough 31: "-2" typed after a ✗ on "2" made "2-2"). WebKit would put the caret where the click
 * that focused it ends: that mouseup does nothing. One selected as it showed, the focus there, stays so
 * at the first press in it too, its mouseup doing nothing either (walk 38: clicked to mend "−5", the
 * caret went to its end, and "5" made "−55").
 */
function wireVerdicts(input: HTMLInputElement): void {
  if (wired.has(input)) return;
  wired.add(input);
  input.addEventListener("keydown", (e) => {
    if (/^(Arrow|Home|End)/.test(e.key)) delete input.dataset.kept;
  });
  // The click's mouseup leaves the selection be (WebKit would put the caret where it ends).
  const keepThroughMouseup = (): void =>
    input.addEventListener("mouseup", (e) => e.preventDefault(), { once: true });
  input.addEventListener("mousedown", (e) => {
    if (selected.has(input) && input.selectionStart === 0 && input.selectionEnd === input.value.length) {
      e.preventDefault();
      keepThroughMouseup();
    }
    selected.delete(input);
  });
  input.addEventListener("focus", () => {
    if (input.dataset.verdict !== "wrong") return;
    input.select();
    keepThroughMouseup();
  });
}

/**
 * New numbers for the graph judged (predict.ts sync): the answers stay, unmarked, each kept for the
 * first key typed in its field to replace (typedAgain), and the outcome's line says so.
 */
export function keepAnswers(fields: readonly Field[], summary: HTMLElement, i18n: I18n): void {
  for (const field of fields) {
    forgetAnswer(field);
    field.input.dataset.kept = field.input.value;
  }
  setText(summary, i18n.t("predict_again"));
  delete summary.dataset.tally;
}

/** Undo what showAnswers wrote at a field: its verdict, its marks and its words. */
export function forgetAnswer(field: Field): void {
  delete field.row.dataset.verdict;
  delete field.row.dataset.due;
  field.row.removeAttribute("data-pending");
  field.message.removeAttribute("data-pending");
  delete field.input.dataset.verdict;
  setAttr(field.input, "aria-invalid", null);
  setAttr(field.input, "aria-describedby", null);
  setText(field.message, "");
  field.message.hidden = true;
  field.message.classList.remove("tdg-sr-only");
  delete field.message.dataset.kind;
}
