// Predict, then check: one field per leaf of the graph on screen, a Check button, and after Check a
// verdict per field (data-verdict=right|wrong) with the chain-rule path that makes the right number.
// Nothing here shows a gradient before Check, and a verdict shows only once the backward pass has
// brought its gradient (answers.ts reachAnswers). While the learner types or drags, the fields follow
// the graph like the sliders do: a leaf that stays keeps what the learner typed until it is checked;
// then new numbers take the verdicts and keep the answers, unmarked, and a new expression takes both.
// A preset or an exercise's link is a new setup: every field empties. The reading, judging and
// explaining are pure (verdict.ts; answers.ts, in the engine's bundle, writes them at the fields, and
// what a field typed in after Check does). A graph with many leaves, or any graph on a phone-wide or
// tall stage, folds its fields behind the legend (a button then), so the timeline's buttons stay right
// under the graph.

import type { Timeline } from "../../inference/types";
import { h, setAttr, setText, uid } from "../shared/dom";
import type { I18n } from "../shared/i18n";
import type { SandboxState } from "../model/model";
import { engineReady, lazyEngine } from "../engine/load";
import type { Panel } from "../page/url";

// More leaves than this (three rows of fields on a desktop) start folded: the graph, its caption and
// the buttons that play it stay on one screen. On a phone-wide stage even three fields with their help
// would push those buttons a screen below the graph: folded there whatever their number, and under a
// stage too tall for the fields and those buttons both (stage.ts cramped). Folded as it becomes
// foldable; then as the learner left it.
const FOLD_ABOVE = 6;
export const FIELD_NAME = "predict-"; // + the leaf's name: each field's name (the language links read them)

export interface Field {
  name: string; // the variable
  row: HTMLElement;
  input: HTMLInputElement;
  message: HTMLElement; // under the fields: a reading problem, or the verdict and its explanation
}

export class PredictPanel {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private readonly messages: HTMLElement;
  readonly summary: HTMLElement; // the outcome, right under the fields and Check
  private readonly legend: HTMLElement;
  private readonly title: string; // the legend's words, plain or on the folding button
  private readonly body: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private foldable = false; // the legend is a button that folds the fields (foldIfDue)
  private cramped = false; // the stage is phone-wide, or too tall for the fields too (setCramped)
  private aside = false; // a link opened an exercise with another panel or none: folded out of its way
  private unfolded = false; // the reader or a link unfolded the fields: a resize does not fold them again
  private fields: Field[] = [];
  // What the verdicts are about: the graph and its numbers; no numbers once they changed and the
  // answers were kept, unmarked, for the next Check (sync).
  private judged: { timeline: Timeline | null; expression: string } | null = null;
  private shown: SandboxState | null = null;

  constructor(
    private readonly i18n: I18n,
    private readonly onCheck: () => void,
  ) {
    const t = i18n.t;
    const id = uid("tdg-predict");
    this.list = h("div", { class: "tdg-predict-fields" });
    // The messages go under all the fields, in their order: a field and Check never move when the
    // verdicts arrive (walkthrough 12: a's "Right" beside it pushed b on, Check went to a third row).
    this.messages = h("div", { class: "tdg-predict-messages" });
    const check = h(
      "button",
      { type: "button", class: "tdg-button tdg-predict-check", "data-action": "check" },
      t("predict_check"),
    );
    this.summary = h("p", {
      class: "tdg-predict-summary",
      role: "status",
      "aria-live": "polite",
      "aria-atomic": "true",
    });
    this.body = h(
      "div",
      { class: "tdg-predict-body", id: `${id}-body` },
      h("p", { class: "tdg-help", id: `${id}-help` }, t("predict_help")),
      // The outcome ("2 of 3 right") heads the verdicts, right under the fields and Check, which it does
      // not move (walkthrough 13: above them, it moved the row 51 px on a phone): in view with them,
      // however long the wrong answers' explanations under it grow.
      h("div", { class: "tdg-predict-row" }, this.list, check),
      this.summary,
      this.messages,
    );
    this.title = t("predict_legend");
    this.toggle = h(
      "button",
      { type: "button", class: "tdg-predict-toggle", "aria-controls": this.body.id },
      this.title,
    );
    this.legend = h("legend", { class: "tdg-field-label" }, this.title);
    this.el = h(
      "fieldset",
      { class: "tdg-predict", "aria-describedby": `${id}-help` },
      this.legend,
      this.body,
    );
    check.addEventListener("click", () => this.onCheck());
    this.toggle.addEventListener("click", () => {
      this.unfolded = this.body.hidden; // the reader's choice, which a resize keeps
      this.fold(!this.unfolded);
      // The fields opened under a tall graph reach below the fold: the page moves just enough to show
      // Check, the row of fields with it (walkthrough 25: Check at y = 790-823 of 800), whatever the
      // words under them (review 57: the whole body, a wrong answer's words in it, took the graph away).
      if (this.unfolded) check.scrollIntoView({ block: "nearest" });
    });
  }

  /** Hide or show the fields (only while the legend is the folding button). */
  private fold(folded: boolean): void {
    this.body.hidden = folded;
    this.el.classList.toggle("is-folded", folded);
    setAttr(this.toggle, "aria-expanded", String(!folded));
  }

  /**
   * What a link brings (after the setup it opens has emptied the fields): the fields unfolded for an
   * exercise that asks for predictions, folded for one that asks for another panel or none ("none":
   * walkthrough 20, (b)'s Backward and (c)'s Play were under the unused fields, below a desktop's fold),
   * and what the learner had typed in them before switching the page's language, for the leaves the
   * graph still has.
   */
  receive(open: Panel | "none" | undefined, predictions: Record<string, string> = {}): void {
    const typed = this.fields.filter((f) => predictions[f.name] !== undefined);
    for (const field of typed) field.input.value = predictions[field.name]!;
    // An exercise with another panel (Nudge check) folds the fields even where they would not fold
    // by themselves (walkthrough 9: on a desktop the open, unused fields pushed Nudge check's result
    // under the fold).
    this.aside = open !== undefined && open !== "predict" && typed.length === 0;
    if (open !== undefined || typed.length > 0) this.unfolded = open === "predict" || typed.length > 0;
    this.foldIfDue();
    if (this.foldable && open) this.fold(open !== "predict" && typed.length === 0);
    else if (this.foldable && typed.length > 0) this.fold(false);
  }

  /** After every transition: fields for the graph's leaves; verdicts only while they still hold. */
  sync(s: SandboxState): void {
    const before = this.shown;
    this.shown = s;
    if (before?.timeline !== s.timeline) {
      this.reconcile(s.timeline.variables.map((v) => v.name));
      this.el.hidden = this.fields.length === 0; // a graph of numbers only: nothing to predict
      this.foldIfDue();
    }
    // Checked answers were about the graph and numbers then: once either changes their verdicts go. A
    // new expression takes the answers too; new numbers keep them, unmarked, for the learner to check
    // again (walkthroughs 22, 23: trying another value lost every answer), and the first key typed in
    // one starts it anew, so a new answer is never typed after an old one ("−2" then "3" read "−23").
    // Once: numbers changed again leave them as they are (review 56: each move took the graph back).
    if (this.awaits(s)) {
      lazyEngine.keepAnswers(this.fields, this.summary, this.i18n); // (Check has loaded the engine)
      this.judged = { expression: s.expression, timeline: null }; // (a new expression still takes them)
    } else if (this.judged && this.judged.expression !== s.expression) this.restart();
  }

  /**
   * Marked answers about the same graph with other numbers: they are about to be kept for the next
   * Check (sync), and the graph goes back to before the gradients they wait for (sandbox.ts).
   */
  awaits(s: SandboxState): boolean {
    const judged = this.judged;
    return !!judged?.timeline && judged.expression === s.expression && judged.timeline !== s.timeline;
  }

  /**
   * Every field, unfolded, holds an answer, and one of them has no mark (none checked yet, one changed
   * since, or all kept unmarked for new numbers): the backward pass should not play past it unjudged
   * (sandbox.ts backward; walk 40: a mended answer stayed unmarked through Backward).
   */
  unchecked(): boolean {
    const answered = this.fields.every((f) => f.input.value.trim());
    const unmarked = this.fields.some((f) => !f.row.dataset.verdict);
    return !this.el.hidden && !this.body.hidden && answered && unmarked;
  }

  /** The stage became phone-wide or too tall for the fields too, or stopped being so (each frame drawn). */
  setCramped(cramped: boolean): void {
    this.cramped = cramped;
    this.foldIfDue(); // (nothing, unless the fields become foldable or stop being so)
  }

  /**
   * Many leaves or a cramped stage: the legend becomes the folding button, and the fields fold, unless
   * the reader or an exercise's link unfolded them (walkthrough 16: turning a phone to landscape and
   * back folded exercise (a)'s fields, its words with them).
   */
  private foldIfDue(): void {
    const foldable = this.cramped || this.fields.length > FOLD_ABOVE || this.aside;
    if (foldable === this.foldable) return;
    this.foldable = foldable;
    this.legend.replaceChildren(foldable ? this.toggle : this.title);
    // (never over answers typed: review 56, a tablet turned folded them away with their marks)
    this.fold(foldable && !this.unfolded && !this.fields.some((f) => f.input.value));
  }

  /**
   * Judge every field against the graph on screen; false (and messages at the fields) when one cannot
   * be read.
   */
  check(s: SandboxState): boolean {
    // Judged and written by the engine's bundle, loaded for Check (sandbox.ts): answers.ts.
    const judged = lazyEngine.showAnswers(this.fields, this.summary, s, this.i18n, () => this.clear());
    if (judged) this.judged = { timeline: s.timeline, expression: s.expression };
    return judged;
  }

  /**
   * Each frame drawn: which verdicts show yet (answers.ts reachAnswers), once there are any; the first
   * wrong answer's words, or the outcome, when the last verdict has just shown.
   */
  reach(s: SandboxState, completed: number): HTMLElement | null {
    return this.judged && lazyEngine.reachAnswers(this.fields, this.summary, s, completed, this.i18n);
  }

  /** A new setup (a preset, an exercise's link): what was typed was about another graph. */
  restart(): void {
    for (const field of this.fields) field.input.value = "";
    this.clear();
  }

  /** Forget every verdict and message (what they judged cannot be read, or is gone). */
  private clear(): void {
    this.judged = null;
    setText(this.summary, "");
    // (only Check marks a field, with the engine's bundle: before it, there is nothing to undo)
    if (engineReady()) for (const field of this.fields) lazyEngine.forgetAnswer(field);
  }

  /** One field per leaf, in the graph's order; a leaf that stays keeps its field (and what is typed in it). */
  private reconcile(names: string[]): void {
    if (names.join(",") === this.fields.map((f) => f.name).join(",")) return;
    const kept = new Map(this.fields.filter((f) => names.includes(f.name)).map((f) => [f.name, f]));
    for (const field of this.fields.filter((f) => !kept.has(f.name))) {
      field.row.remove();
      field.message.remove();
    }
    this.fields = names.map((name) => kept.get(name) ?? this.field(name));
    this.messages.append(...this.fields.map((f) => f.message)); // in the fields' order
    // The focused row is never moved (moving it would blur it); the others go around it.
    const active = this.list.ownerDocument.activeElement;
    const anchor = this.fields.findIndex((f) => f.row.contains(active));
    if (anchor < 0) {
      this.list.append(...this.fields.map((f) => f.row));
      return;
    }
    const fixed = this.fields[anchor]!.row;
    for (const f of this.fields.slice(0, anchor)) this.list.insertBefore(f.row, fixed);
    let after = fixed.nextSibling;
    for (const f of this.fields.slice(anchor + 1)) {
      if (f.row !== after) this.list.insertBefore(f.row, after);
      after = f.row.nextSibling;
    }
  }

  private field(name: string): Field {
    const id = uid("tdg-predict");
    const input = h("input", {
      type: "text",
      name: `${FIELD_NAME}${name}`,
      id,
      class: "tdg-predict-input",
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      size: 7,
    });
    const message = h("p", { class: "tdg-predict-message", id: `${id}-message`, hidden: true });
    const row = h(
      "div",
      { class: "tdg-predict-field", "data-var": name },
      h("label", { for: id }, this.i18n.t("predict_field", { name })),
      input,
    );
    const field = { name, row, input, message };
    // (What a verdict or a kept answer does with the keys and the focus comes with the first Check:
    // answers.ts wireVerdicts.)
    input.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      this.onCheck();
    });
    // What was judged, or kept from other numbers, is no longer what the field says (answers.ts; only
    // Check judges, with the engine's bundle).
    input.addEventListener("input", (e) => {
      if (engineReady()) lazyEngine.typedAgain(field, this.summary, this.i18n, e as InputEvent);
    });
    return field;
  }
}
