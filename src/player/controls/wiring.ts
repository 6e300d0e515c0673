// Every event a sandbox listens to, turned into actions (model.ts) or stage requests. Nothing here
// decides what a change means: that is reduce()'s job.

import type { Controls } from "./controls";
import { loadEngine } from "../engine/load";
import { belowHeader } from "../shared/dom";
import { dropRefusal, fitSlider, type Slider, showValue } from "./sliders";
import { readNumber } from "../model/verdict";
import { MAX_MAGNITUDE } from "../page/url";
import type { Action, Preset, SandboxState } from "../model/model";
import { DEFAULT_VIEW, rotate } from "../model/view";
import type { Stage } from "../stage/stage";
import type { I18n } from "../shared/i18n";

const KEY_ROTATION: Record<string, [number, number]> = {
  ArrowLeft: [-0.08, 0],
  ArrowRight: [0.08, 0],
  ArrowUp: [0, -0.06],
  ArrowDown: [0, 0.06],
};
const PALETTE_ATTRIBUTES = ["data-md-color-scheme", "data-md-color-primary", "data-md-color-accent"];

export interface DispatchOptions {
  byReader?: boolean; // false: the sandbox did it (autoplay); no URL, no narration
  url?: boolean; // false: a change the address does not record (the view angle)
  inputAt?: number; // event time of the input being drawn, for the input-to-frame measure
  now?: boolean; // draw within this event (an answer the reader is waiting for)
  show?: HTMLElement; // a pulse this starts plays in view, with this element (the button, the caption) where both fit
}

/** What the wiring needs from the sandbox. */
export interface Target {
  readonly ui: Controls;
  readonly stage: Stage;
  readonly presets: readonly Preset[];
  readonly i18n: I18n;
  current(): SandboxState;
  dispatch(action: Action, options?: DispatchOptions): void;
  copyLink(): void;
  backward(): void; // Backward's press: the pass, or Check for the answers typed
  nudge(leaf: string, step: string): void;
  announce(): void;
  invalidate(): void;
  repaint(): void;
  resize(width: number): void;
  hashChanged(): void;
}

export function wireControls(t: Target): void {
  const ui = t.ui;
  // The engine sets off as the reader reaches for a field, a slider or a menu (a press, a tab), so
  // that it is usually there by the first change they make with it (load.ts).
  const reaching = (e: Event): void => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement)
      loadEngine().catch(() => undefined); // a failed load is said when a change needs it
  };
  ui.player.addEventListener("pointerdown", reaching, { capture: true, passive: true });
  ui.player.addEventListener("focusin", reaching);
  ui.expression.addEventListener("input", (e) =>
    t.dispatch({ type: "edit", text: ui.expression.value }, { inputAt: e.timeStamp }),
  );
  ui.presets.forEach((button, i) => {
    button.addEventListener("click", () => {
      // New values, though some may equal the ones a refusal kept (xwalk 35: "b stays −3" stayed on)
      for (const field of ui.variables.querySelectorAll<HTMLInputElement>("[aria-describedby]"))
        dropRefusal(field);
      const preset = t.presets[i];
      // A pulse that plays on plays in view (walk 36: with five sliders above, under a desktop's fold)
      if (preset) t.dispatch({ type: "preset", preset }, { show: ui.caption });
    });
  });
  ui.play.addEventListener("click", () => t.dispatch({ type: "toggle-play" }, { show: ui.play }));
  ui.forward.addEventListener("click", () =>
    t.dispatch({ type: "restart", direction: "forward" }, { show: ui.forward }),
  );
  ui.backward.addEventListener("click", () => t.backward());
  ui.time.addEventListener("input", () => t.dispatch({ type: "seek", time: Number(ui.time.value) }));
  ui.time.addEventListener("keydown", (e) => timeKey(t, e));
  ui.localDerivatives.addEventListener("change", () =>
    t.dispatch({ type: "option", name: "localDerivatives", on: ui.localDerivatives.checked }),
  );
  ui.finalGradients.addEventListener("change", () =>
    t.dispatch({ type: "option", name: "finalGradients", on: ui.finalGradients.checked }),
  );
  ui.resetView.addEventListener("click", () =>
    t.dispatch({ type: "view", view: DEFAULT_VIEW }, { url: false }),
  );
  ui.copyLink.addEventListener("click", () => t.copyLink());
  ui.stepBack.addEventListener("click", () => t.dispatch({ type: "step", delta: -1 }));
  ui.stepOn.addEventListener("click", () => t.dispatch({ type: "step", delta: 1 }));
  const nudge = (): void => t.nudge(ui.nudgeLeaf.value, ui.nudgeH.value);
  ui.nudgeRun.addEventListener("click", nudge);
  // Enter in h nudges, as Enter in a prediction field checks.
  ui.nudgeH.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    nudge();
  });
  ui.nudgeLeaf.addEventListener("change", () => t.dispatch({ type: "forget-nudge" }, { now: true }));
}

/** A slider's two fields; wired once, when the slider is created (sliders are reused, see controls.ts). */
export function wireSlider(t: Target, slider: Slider): void {
  slider.range.addEventListener("input", (e) => {
    const value = Number(slider.range.value);
    showValue(slider, value);
    t.dispatch({ type: "set-value", name: slider.name, value }, { inputAt: e.timeStamp });
  });
  const typed = (value: number, at?: number): void => {
    fitSlider(slider, value);
    dropRefusal(slider.number);
    slider.range.value = String(value);
    t.dispatch({ type: "set-value", name: slider.name, value }, { inputAt: at });
  };
  // The value a refused text gives back: the one before it was typed (review 58: the "1e4" of "1e400"
  // had been applied as typed, and stayed). Forgotten as the field is left, even with no change to
  // commit (review 59: "35" typed, "3" left, a drag to 7, then "x" gave back 3).
  let before: number | undefined;
  slider.number.addEventListener("blur", () => (before = undefined));
  // Read as a prediction is (verdict.ts): "1/3", "(−2)", "1 000,5", and "1,000" in English (review 58).
  const read = (text: string): number => readNumber(text, slider.lang);
  slider.number.addEventListener("input", (e) => {
    before ??= t.current().values[slider.name];
    const value = read(slider.number.value);
    // Half typed or no number, or beyond what an address keeps (the "1e40" of "1e400"), is not applied;
    // a number that is takes away the words on a text refused before (walkthrough 30).
    if (Math.abs(value) <= MAX_MAGNITUDE) typed(value, e.timeStamp);
  });
  // Quiet while dragging; let go (or a value typed and committed), the live region says the step on
  // screen again, with its new numbers.
  for (const field of [slider.range, slider.number]) field.addEventListener("change", () => t.announce());
  // Committed: a value within reach stays; else the one before comes back, and the engine (set off as
  // the field took the focus) says why under the field (valuecheck.ts), once it is here (walkthrough 32:
  // a value refused before it was, on a slow line or soon after the sandbox woke, came back unexplained).
  slider.number.addEventListener("change", () => {
    const text = slider.number.value;
    const kept = before;
    before = undefined;
    const value = read(text);
    // Taken: written as the number it is, the page's way ("1/3" as 0.3333333333333333; walkthrough 29:
    // "3,5" stayed on the English page).
    if (Math.abs(value) <= MAX_MAGNITUDE) return showValue(slider, value);
    if (kept === undefined) return;
    typed(kept); // (the same number again changes nothing: checked answers keep their marks)
    showValue(slider, kept);
    loadEngine().then(
      (engine) => engine.refuseValue(slider, text, kept, t.i18n),
      () => undefined,
    );
  });
}

/** On the timeline: arrows step one event, Space / Enter play or pause, Home / End jump. */
function timeKey(t: Target, e: KeyboardEvent): void {
  const duration = t.current().schedule.duration;
  const keys: Record<string, Action> = {
    ArrowRight: { type: "step", delta: 1 },
    ArrowUp: { type: "step", delta: 1 },
    PageUp: { type: "step", delta: 1 },
    ArrowLeft: { type: "step", delta: -1 },
    ArrowDown: { type: "step", delta: -1 },
    PageDown: { type: "step", delta: -1 },
    Home: { type: "seek", time: 0 },
    End: { type: "seek", time: duration },
    " ": { type: "toggle-play" },
    Enter: { type: "toggle-play" },
  };
  const action = keys[e.key];
  if (!action) return;
  e.preventDefault();
  t.dispatch(action);
}

/** Drag (mouse, pen or touch) or arrow keys on the focused stage rotate the view, within limits. */
export function wireRotation(t: Target): void {
  const stage = t.ui.stage;
  let drag: { id: number; x: number; y: number } | null = null;
  const turn = (dx: number, dy: number): void => {
    const view = t.current().view;
    t.dispatch({ type: "view", view: rotate(view, dx, dy, t.stage.width) }, { url: false });
  };
  // A flat graph (panned, or seen whole) does not turn: a turn taken unseen would show up later.
  const flat = (): boolean => t.stage.viewport.flat;
  stage.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || flat() || (e.target instanceof Element && e.target.closest("button, input")))
      return;
    drag = { id: e.pointerId, x: e.clientX, y: e.clientY };
    stage.setPointerCapture?.(e.pointerId);
    stage.dataset.dragging = "";
  });
  stage.addEventListener("pointermove", (e) => {
    if (!drag) {
      if (t.stage.point(e)) t.invalidate();
      return;
    }
    if (e.pointerId !== drag.id) return;
    const [dx, dy] = [e.clientX - drag.x, e.clientY - drag.y];
    drag = { id: e.pointerId, x: e.clientX, y: e.clientY };
    turn(dx, dy);
  });
  const end = (e: PointerEvent): void => {
    if (!drag || e.pointerId !== drag.id) return;
    drag = null;
    delete stage.dataset.dragging;
  };
  stage.addEventListener("pointerup", end);
  stage.addEventListener("pointercancel", end);
  stage.addEventListener("pointerleave", () => {
    if (t.stage.setPointed(new Set())) t.invalidate();
  });
  stage.addEventListener("keydown", (e) => {
    // The site's one-key shortcuts (p, n, s) stay out of the graph, as out of a field (walkthrough 21:
    // "p" on a card left for page 00).
    if (e.key.length === 1 && !e.ctrlKey && !e.metaKey) e.stopPropagation();
    const d = KEY_ROTATION[e.key];
    if (!d || e.target !== stage || flat()) return;
    e.preventDefault();
    const view = t.current().view;
    t.dispatch({ type: "view", view: { yaw: view.yaw + d[0], pitch: view.pitch + d[1] } }, { url: false });
  });
}

/** The page around the sandbox: shared links, the colour scheme, fonts, the stage's width. */
export function wirePage(t: Target): void {
  addEventListener("hashchange", () => t.hashChanged());
  new MutationObserver(() => t.repaint()).observe(document.body, {
    attributes: true,
    attributeFilter: PALETTE_ATTRIBUTES,
  });
  matchMedia?.("(prefers-color-scheme: dark)").addEventListener?.("change", () => t.repaint());
  // Label sizes are measured in the page's fonts: measure again once web fonts have arrived.
  document.fonts?.addEventListener?.("loadingdone", () => {
    t.stage.remeasure();
    t.invalidate();
  });
  // The stage's height follows its width. Changed inside the observer's callback, it would resize the
  // page under the page's own observers (Material's) in the same frame, and the browser reports a
  // "ResizeObserver loop completed with undelivered notifications" error: lay out in the next frame.
  let width = 0;
  let frame = 0;
  new ResizeObserver((entries) => {
    width = Math.round(entries[0]?.contentRect.width ?? width);
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (width && width !== t.stage.width) t.resize(width);
    });
  }).observe(t.ui.stage);
  keepInViewAcrossWidths(t.ui.stage);
}

const SETTLE_MS = 250; // after a new width, the page's other pieces (figures, panels) have taken theirs

/**
 * A new window width reflows the whole page (Material's sidebars come and go), and the browser's
 * scroll anchoring may hold on to another element: a graph that was in view goes out of it
 * (walkthrough 9: 1280 -> 800 px wide and back put it 344 px lower; a phone's width, 3,000 px below).
 * A graph that was wholly in view and no longer is, under the header or the fold, is brought back, its
 * top under the header (walkthroughs 27-29: a window widened from 844×390 to 1280×800 left the graph
 * at 614-940 of 800, its words under the fold, and narrowed to 390×844, its top 36 px under the
 * header, both times since half of it still showed). One the reader had only in part in view (half of
 * it at the window's bottom, or one taller than the window) is left where the browser puts it: a
 * window dragged a little wider does not pull it up (review 59). Only for a new width: a phone's
 * address bar coming and going while the reader scrolls changes the height alone, and the reader is
 * not fought.
 */
function keepInViewAcrossWidths(stage: HTMLElement): void {
  let seen = false; // all of it in view, as the last frame before the resize left it
  new IntersectionObserver(
    (entries) => {
      for (const e of entries) seen = e.intersectionRatio > 0.99;
    },
    { threshold: [0, 1] },
  ).observe(stage);
  let width = innerWidth;
  let until = 0; // a window dragged wider or narrower: its graph is kept until the widths have settled
  addEventListener("resize", () => {
    if (innerWidth === width) return;
    width = innerWidth;
    // (walkthrough 30: a drag's first steps moved the graph out of view before a frame could bring it
    // back, and the later steps, seeing it out of view, left it there)
    if (!seen && performance.now() > until) return;
    until = performance.now() + SETTLE_MS;
    // Two frames on, when the stages of the page have taken their new sizes (the ResizeObserver above
    // lays a stage out a frame later), and once more when what they moved has settled, unless the
    // reader has scrolled since: a reader who scrolls right after turning the phone is not fought.
    const bringBack = (): void => {
      if (belowHeader(stage) < 0 || stage.getBoundingClientRect().bottom > innerHeight)
        stage.scrollIntoView({ block: "start" });
    };
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        bringBack();
        const left = scrollY;
        setTimeout(() => {
          if (scrollY === left) bringBack();
        }, SETTLE_MS);
      }),
    );
  });
}
