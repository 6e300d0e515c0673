// The exercise a link opened, in view with the graph (walkthrough 9: it stayed 2,000 px below), written
// by the on-demand bundle (engine.ts): a link's setup waits for the engine anyway (exercises.ts).

import type { SandboxData } from "../page/mount";
import { WRITE_NOW } from "../page/address";
import { pastHeader } from "../page/toplink";
import { decodeMoment, type Panel } from "../page/url";
import { AFTER_MESSAGE } from "../controls/errorview";
import { h } from "../shared/dom";
import { type I18n, makeI18n } from "../shared/i18n";
import { PANELS } from "./exercises";
import { held, landing } from "./landing";

/** An exercise's words in the text, and which of its sandbox's links opens it. */
export interface Exercise {
  text: HTMLParagraphElement;
  link: HTMLAnchorElement; // the link that opens it (↩ gives it the focus)
  index: number;
}

/**
 * The task in view with the graph (walkthrough 9: it stayed 2,000 px below): the exercise's words with
 * the control it uses (at the top of the panel its link unfolds, else in the expression's hint's place,
 * two lines of it), a button back to them in the text, one that closes it. Another exercise's link or
 * another address (Back, a shared link) ends it; edits and presets do not (exercise (d) asks for an
 * edit, (b) names its preset: walkthrough 15, choosing it took the words away).
 */
export function showTask(root: HTMLElement, exercise: Exercise | null, reduced: boolean): void {
  shown.get(root)?.dismiss();
  // With the control the exercise uses: the panel its link unfolds, else the expression it sets.
  const open = decodeMoment(location.hash, root.id)?.open;
  const panel = open ? root.querySelector(`${PANELS[open]} > :is(legend, summary)`) : null;
  const place = panel ?? root.querySelector(".tdg-expr > .tdg-help");
  if (!exercise || !place) return;
  const t = wordsOf(root).t;
  const back = h("button", { type: "button", class: "tdg-task-back", "aria-label": t("task_back") }, "↩");
  const close = h("button", { type: "button", class: "tdg-task-close", "aria-label": t("task_close") }, "×");
  // In a panel under the graph, the expression the exercise may ask to change is a screen above: a
  // button takes the reader there (walkthrough 12: (d) "Find an expression…" landed with it out of view).
  const edit = panel
    ? h("button", { type: "button", class: "tdg-task-edit", "aria-label": t("task_expression") }, "✎")
    : null;
  const words = [...exercise.text.childNodes].map((node) => node.cloneNode(true));
  const text = h("p", { class: "tdg-task-text", id: `${root.id}-task` }, ...words);
  // Two lines keep the panel's height; the rest of the words unfold on demand (walkthrough 10: (d)'s
  // question was cut off on a phone), from a button that says so, beside them in a wide window and
  // under them in a narrow one (walkthrough 19: a bare ▾ beside three other icons was found only by
  // trying it). Under the expression, in the hint's two lines, the arrow alone: its words are for screen
  // readers there (panels.css, sr-only.css).
  const more = h(
    "button",
    {
      type: "button",
      class: "tdg-task-more",
      "aria-expanded": "false",
      "aria-controls": text.id,
      hidden: true,
    },
    h("span", { "aria-hidden": "true" }, "▾"),
    h("span", { class: "tdg-task-more-words" }, t("task_more")),
  );
  // (offer: the strip's ▾ as the words now shown ask, before the layout its observer reads.)
  // Under the expression an error message covers the words: the way back follows the message instead;
  // so it does for the words in a panel, a screen from the field ✎ took the reader to (walk 43: after a
  // typo there, (a) had no way back in sight).
  const message = root.querySelector(".tdg-expr > .tdg-error");
  const stale = staleNote(root, exercise, text, t, () => offer(), message);
  const task = h(
    "aside",
    { class: "tdg-task", "aria-label": t("task_label"), "data-exercise": exercise.index, "data-open": open },
    text,
    stale?.note,
    more,
    edit,
    back,
    close,
  );
  const unfold = (unfolded: boolean): void => {
    more.setAttribute("aria-expanded", String(unfolded));
    task.toggleAttribute("data-unfolded", unfolded);
    // The longer words push the control they speak of down: it stays in the window (walkthrough 11).
    if (unfolded)
      task.parentElement?.scrollIntoView({ block: "nearest", behavior: reduced ? "auto" : "smooth" });
  };
  more.addEventListener("click", () => unfold(more.getAttribute("aria-expanded") !== "true"));
  text.addEventListener("click", () => {
    if (!more.hidden) unfold(true);
  });
  // Offered only while words are cut off (the strip's width changes with the window's).
  const offer = (): void => {
    if (!task.hasAttribute("data-unfolded")) more.hidden = text.scrollHeight <= text.clientHeight + 1;
  };
  const cut = new ResizeObserver(offer);
  cut.observe(text);
  edit?.addEventListener("click", () => {
    const field = root.querySelector<HTMLInputElement>("input[name=expression]");
    if (field) editThenReturn(root, field, edit, open, t, reduced);
  });
  // Back to the words, the focus on the exercise's link (walkthrough 15: it stayed on ↩, 3,000 px up,
  // and the next Tab took the page back to the sandbox).
  back.addEventListener("click", () => {
    exercise.text.scrollIntoView({ block: "center", behavior: reduced ? "auto" : "smooth" });
    exercise.link.focus({ preventScroll: true });
  });
  const dismiss = (): void => {
    cut.disconnect();
    stale?.end();
    task.remove();
    returning.get(root)?.(); // the hint no longer promises a way back
    if (shown.get(root)?.dismiss === dismiss) shown.delete(root);
  };
  close.addEventListener("click", () => {
    const stage = root.querySelector<HTMLElement>(".tdg-stage");
    dismiss();
    stage?.focus({ preventScroll: true }); // not lost to the page's top with the button
    // Closed for good: the address drops it, and the panel its link opened, so that a reload does not
    // bring them back; a change the address was about to get comes with it (review 50).
    root.dispatchEvent(new Event(WRITE_NOW));
  });
  shown.set(root, { dismiss, address: location.hash });
  // Under the panel's title, or in the hint's place under the expression (the sandbox keeps its height).
  if (place instanceof HTMLLegendElement) place.nextElementSibling?.prepend(task);
  else place.after(task);
  offer(); // now, not after the next layout: the landing measures the panel with its button (land)
  if (wired.has(root)) return;
  wired.add(root);
  window.addEventListener("hashchange", () => {
    const now = shown.get(root);
    if (now && location.hash !== now.address) now.dismiss();
  });
  // A phone turned sideways holds the graph beside the controls (stage.css): once the page has its new
  // width, the exercise's words and the control they name come back beside it, where its link put them
  // (walk 43: turned mid-exercise, (a)'s words and Check were a screen under the graph, or the page had
  // gone to its footer). Upright again, the graph's own rule brings it back (wiring.ts).
  let width = innerWidth;
  window.addEventListener("resize", () => {
    if (innerWidth === width) return;
    width = innerWidth;
    setTimeout(() => {
      if (shown.has(root) && held(root)) scrollTo({ top: landing(root) });
    }, AFTER_TURN_MS);
  });
}

/**
 * An exercise about one expression ((a), (b), (c): its words show it as code, as its link sets it up)
 * while the sandbox shows another: its words give way to a line that says so, with a button that sets
 * the exercise up again (walk 38: (a) with "+ d" typed still asked for "all three gradients of
 * (a + b) * c" beside four fields). Null for an exercise that asks for an expression of the reader's
 * own, as (d) does. `toggled`: called as either shows; `end`: stop following the expression. The error
 * `message` under the expression ends with a button back to the setup (walk 40: a typo took "Set it up
 * again" away, the moment a learner most wants it).
 */
function staleNote(
  root: HTMLElement,
  exercise: Exercise,
  text: HTMLElement,
  t: I18n["t"],
  toggled: () => void,
  message: Element | null,
): { note: HTMLElement; end: () => void } | null {
  const squash = (s: string | null): string => (s ?? "").replace(/\s+/g, "");
  const setup = decodeMoment(new URL(exercise.link.href).hash, root.id)?.expression;
  const field = root.querySelector<HTMLInputElement>("input[name=expression]");
  if (!setup || !field) return null;
  if (![...exercise.text.querySelectorAll("code")].some((c) => squash(c.textContent) === squash(setup)))
    return null;
  const button = (words: string): HTMLElement => {
    const again = h("button", { type: "button", class: "tdg-task-again" }, words);
    // As the link's own click: by a pointer, or a key's (no clicks counted: the panel's first field).
    again.addEventListener("click", (e) =>
      exercise.link.dispatchEvent(
        new MouseEvent("click", { bubbles: true, cancelable: true, detail: e.detail }),
      ),
    );
    return again;
  };
  const again = button(t("task_again"));
  const afterError = message && button(t("task_again_error", { expression: setup }));
  if (message && afterError) AFTER_MESSAGE.set(message, afterError);
  // The expression in the code's font, as the exercise's words set it.
  const [before = "", after = ""] = t("task_changed", { expression: "\0" }).split("\0");
  const note = h(
    "p",
    { class: "tdg-task-text tdg-task-stale", hidden: true },
    before,
    h("code", {}, setup),
    after,
    " ",
    again,
  );
  // After the sandbox has taken the change: a keystroke in the field, a preset's chip.
  const follow = (): void => {
    requestAnimationFrame(() => {
      const changed = squash(field.value) !== squash(setup);
      note.hidden = !changed;
      text.hidden = changed;
      toggled();
    });
  };
  root.addEventListener("input", follow);
  root.addEventListener("click", follow);
  follow();
  return {
    note,
    end: () => {
      root.removeEventListener("input", follow);
      root.removeEventListener("click", follow);
      if (message && AFTER_MESSAGE.get(message) === afterError) AFTER_MESSAGE.delete(message);
      afterError?.remove();
    },
  };
}

/**
 * ✎: up to the expression field, and back down with Enter (walkthrough 13: nothing brought the reader
 * back to (d)'s Nudge check once the expression was typed). While the field has the focus its hint
 * says so; Enter on an expression the engine takes scrolls back to where the link landed (the panel
 * with the graph) and gives the focus back to ✎; on one it refuses, the field stays with its message.
 * Leaving the field, another ✎ or the task's end ends it, and the hint says the expression's syntax
 * again.
 */
function editThenReturn(
  root: HTMLElement,
  field: HTMLInputElement,
  edit: HTMLElement,
  open: Panel | undefined,
  t: I18n["t"],
  reduced: boolean,
): void {
  returning.get(root)?.(); // a second ✎ while the field kept the focus (a tap in iOS Safari)
  const behavior = reduced ? "auto" : "smooth";
  // The field just under Material's header, the graph below it in view (walkthrough 16: centred, it left
  // 135 of the graph's 480 px on a desktop screen, none on a phone's).
  scrollBy({ top: pastHeader(field), behavior });
  // The field is under the header until the glide ends: the sandbox's own keeping of a focused field
  // clear of it (toplink.ts) would jump there at once, cutting the glide short.
  if (document.activeElement !== field)
    field.addEventListener("focusin", (e) => e.stopPropagation(), { once: true });
  field.focus({ preventScroll: true });
  const hint = root.querySelector(".tdg-expr > .tdg-help");
  if (hint) hint.textContent = t("task_return");
  const enter = (e: KeyboardEvent): void => {
    if (e.key !== "Enter" || e.isComposing || e.keyCode === 229) return; // 229: Safari's IME Enter
    // After the player has taken the Enter (the message an unfinished end waits with, the new graph).
    requestAnimationFrame(() => {
      if (field.getAttribute("aria-invalid") === "true" || !edit.isConnected) return;
      done();
      edit.focus({ preventScroll: true });
      window.scrollTo({ top: landing(root, open), behavior });
    });
  };
  // The window losing the focus blurs the field too, which keeps it: the reader comes back to it.
  const left = (): void => {
    if (document.activeElement !== field) done();
  };
  const done = (): void => {
    field.removeEventListener("keydown", enter);
    field.removeEventListener("blur", left);
    if (hint) hint.textContent = t("expression_help");
    if (returning.get(root) === done) returning.delete(root);
  };
  field.addEventListener("keydown", enter);
  field.addEventListener("blur", left);
  returning.set(root, done);
}

// Each sandbox's ✎ under way: how to end it (Enter, leaving the field, another ✎, the task's end).
const returning = new WeakMap<HTMLElement, () => void>();

// Each sandbox's task on screen: how to end it, and the address its link (or a language link) opened,
// which edits rewrite without a hashchange; a hashchange to another address ends it.
const shown = new WeakMap<HTMLElement, { dismiss: () => void; address: string }>();
const wired = new WeakSet<HTMLElement>(); // sandboxes whose addresses end the task
const AFTER_TURN_MS = 300; // a new width's layout has settled: the stage's height, the page around it

/** The sandbox's words (its embedded data's strings), for what this module adds to it. */
function wordsOf(root: HTMLElement): I18n {
  const script = root.querySelector("script.tinydag-data");
  const data = JSON.parse(script?.textContent || "{}") as Partial<SandboxData>;
  return makeI18n(data.lang || "en", data.strings ?? {});
}
