// The stage as a window onto a graph too big for it: which part of the graph it shows (the pan),
// and the ways a reader moves it — drag (mouse, pen, one finger), arrow keys on the focused stage,
// a sideways wheel or trackpad swipe — plus scroll bars that say where the window is and a bar
// under the stage with a hint, "whole graph" (an overview: all of it at once, too small to read) and
// "follow the pulse". A graph that fits has nothing to pan: then every event goes on to the rotation
// wiring untouched.

import { h, setAttr, setStyle, uid } from "../shared/dom";
import type { I18n } from "../shared/i18n";

const KEY_STEP = 90; // CSS px per arrow key press (Shift: a whole stage minus a margin)
const KEEP_IN_VIEW = 24; // px kept between a followed card and the stage's border
const KEYS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

export interface Box {
  x: number; // left, CSS px from the stage's left
  y: number;
  w: number;
  h: number;
}

/** A pan within its range: |x| ≤ range.x, |y| ≤ range.y. */
export function clampPan(
  pan: { x: number; y: number },
  range: { x: number; y: number },
): { x: number; y: number } {
  const clamp = (v: number, r: number): number => Math.round(Math.min(r, Math.max(-r, v)));
  return { x: clamp(pan.x, range.x), y: clamp(pan.y, range.y) };
}

/**
 * The smallest move that brings `box` (stage px) inside the stage, `margin` px from its border. Along
 * an axis where it is bigger than the stage, `focus` (a part of it) is shown instead, else its middle.
 */
export function moveToShow(
  box: Box,
  width: number,
  height: number,
  margin = KEEP_IN_VIEW,
  focus?: Box,
): { x: number; y: number } {
  const axis = (start: number, size: number, room: number, inner?: [number, number]): number => {
    const m = Math.min(margin, Math.max(0, (room - size) / 2));
    if (size + 2 * m > room) return inner ? axis(...inner, room) : start + size / 2 - room / 2; // bigger than the stage
    if (start < m) return start - m;
    if (start + size > room - m) return start + size - (room - m);
    return 0;
  };
  return {
    x: axis(box.x, box.w, width, focus && [focus.x, focus.w]),
    y: axis(box.y, box.h, height, focus && [focus.y, focus.h]),
  };
}

/** The smallest box around `boxes`. */
function around(boxes: Box[]): Box {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const w = Math.max(...boxes.map((b) => b.x + b.w)) - x;
  return { x, y, w, h: Math.max(...boxes.map((b) => b.y + b.h)) - y };
}

export class Viewport {
  pan = { x: 0, y: 0 }; // CSS px: where the stage's centre is, from the world's centre (y down)
  follow = true; // keep the pulse's card in view, until the reader pans by hand
  // The whole graph at once, its cards too small to read (walkthrough 10: a 40-node graph showed a
  // third of itself at a time, never its shape). The stage fits it and asks for no panning then.
  overview = false;
  private range = { x: 0, y: 0 };
  private size = { width: 0, height: 0 };
  private drag: { id: number; x: number; y: number } | null = null;
  private readonly barX: HTMLElement;
  private readonly barY: HTMLElement;
  private readonly toolbar: HTMLElement;
  private readonly followButton: HTMLButtonElement;
  private readonly wholeButton: HTMLButtonElement;
  private readonly hint: HTMLElement;
  private readonly hints: { pan: string; whole: string };
  private readonly hintId = uid("tdg-pan-hint");
  private readonly describedBy: string | null; // the stage's own description (how to turn it)

  constructor(
    private readonly stage: HTMLElement,
    i18n: I18n,
    private readonly changed: () => void,
    private readonly zoomed: () => void = changed, // the overview turned on or off: fit the stage again
  ) {
    const t = i18n.t;
    this.barX = h("div", { class: "tdg-pan-bar", "data-axis": "x", "aria-hidden": "true", hidden: true });
    this.barY = h("div", { class: "tdg-pan-bar", "data-axis": "y", "aria-hidden": "true", hidden: true });
    stage.append(this.barX, this.barY);
    this.followButton = h(
      "button",
      { type: "button", class: "tdg-button", "data-action": "follow", "aria-pressed": "true" },
      t("pan_follow"),
    );
    this.wholeButton = h(
      "button",
      { type: "button", class: "tdg-button", "data-action": "whole", "aria-pressed": "false" },
      t("pan_whole"),
    );
    const touch = matchMedia?.("(pointer: coarse)").matches ?? false;
    this.hints = { pan: t(touch ? "pan_hint_touch" : "pan_hint"), whole: t("pan_whole_hint") };
    this.hint = h("span", { class: "tdg-pan-hint", id: this.hintId }, this.hints.pan);
    this.toolbar = h(
      "div",
      { class: "tdg-pan-toolbar", hidden: true },
      this.hint,
      h("span", { class: "tdg-pan-buttons" }, this.wholeButton, this.followButton),
    );
    // Under the step's words (the stage's next sibling, controls.ts), which stay right under the graph:
    // in a short window a toolbar between them put the words under the fold (walkthrough 27).
    (stage.nextElementSibling ?? stage).after(this.toolbar);
    this.describedBy = stage.getAttribute("aria-describedby");
    this.followButton.addEventListener("click", () => {
      this.follow = !this.follow;
      this.sync();
      this.changed();
    });
    this.wholeButton.addEventListener("click", () => {
      this.overview = !this.overview;
      if (!this.overview) this.follow = true; // back to reading: where the pulse is
      this.zoomed();
    });
    this.wire();
  }

  get pannable(): boolean {
    return this.range.x > 0 || this.range.y > 0;
  }

  /** Drawn flat, like a map, and never turned: a graph being panned, or the overview of one. */
  get flat(): boolean {
    return this.pannable || this.overview;
  }

  /** A new fit: how much bigger than the stage the world is. `fresh`: a new graph, start over. */
  setBounds(
    stage: { width: number; height: number },
    world: { width: number; height: number },
    fresh: boolean,
  ): void {
    this.size = stage;
    const spare = (outside: number): number => (outside > 2 ? outside / 2 : 0); // rounding is not a reason to pan
    this.range = { x: spare(world.width - stage.width), y: spare(world.height - stage.height) };
    if (fresh) this.reset();
    this.pan = clampPan(this.pan, this.range);
    this.stage.classList.toggle("is-pannable", this.pannable);
    // Only sideways to pan: an upright swipe still scrolls the page.
    this.stage.classList.toggle("is-pannable-x", this.range.x > 0 && this.range.y === 0);
    // The overview fits the graph (nothing to pan): the bar stays, to take the reader back.
    this.toolbar.hidden = !this.pannable && !this.overview;
    // Out of sight but keeping its room: Whole graph stays under the finger that pressed it (walkthrough 12).
    setStyle(this.followButton, "visibility", this.overview ? "hidden" : "visible");
    this.hint.textContent = this.overview ? this.hints.whole : this.hints.pan;
    setAttr(this.stage, "data-pannable", this.pannable ? "true" : null);
    setAttr(this.stage, "data-flat", this.flat ? "true" : null); // no turning (wireRotation), no hint of it
    // A panned graph does not turn: the stage is described by how to pan it instead.
    setAttr(this.stage, "aria-describedby", this.flat ? this.hintId : this.describedBy);
    this.sync();
  }

  /** Back to where a forward pass starts (the inputs, on the left, at mid-height), following the pulse. */
  reset(): void {
    this.follow = true;
    this.pan = clampPan({ x: -this.range.x, y: 0 }, this.range);
    this.sync();
  }

  /** Move by (dx, dy) CSS px of the graph; by hand unless `byReader` is false. */
  panBy(dx: number, dy: number, byReader = true): boolean {
    const next = clampPan({ x: this.pan.x + dx, y: this.pan.y + dy }, this.range);
    if (byReader && this.follow) {
      this.follow = false;
      this.sync();
    }
    if (next.x === this.pan.x && next.y === this.pan.y) return false;
    this.pan = next;
    this.sync();
    return true;
  }

  /**
   * Follow the pulse: bring these cards' boxes (stage px) into view, or where they are too far apart,
   * those of `focus` (the card the step is about); true when the pan moved.
   */
  keepInView(boxes: Box[], focus: Box[]): boolean {
    if (!this.follow || !this.pannable || boxes.length === 0) return false;
    const move = moveToShow(
      around(boxes),
      this.size.width,
      this.size.height,
      KEEP_IN_VIEW,
      focus.length ? around(focus) : undefined,
    );
    return (Math.abs(move.x) >= 1 || Math.abs(move.y) >= 1) && this.panBy(move.x, move.y, false);
  }

  /** Which scroll bars show (the graph pans that way): edge labels keep off them (stage.ts). */
  get bars(): { x: boolean; y: boolean } {
    return { x: this.range.x > 0, y: this.range.y > 0 };
  }

  /** Scroll bars: how big the stage is against the world, and where it is. */
  private sync(): void {
    setAttr(this.followButton, "aria-pressed", String(this.follow));
    setAttr(this.wholeButton, "aria-pressed", String(this.overview));
    const bar = (el: HTMLElement, range: number, pan: number, room: number): void => {
      el.hidden = range <= 0;
      if (range <= 0) return;
      const share = room / (room + 2 * range);
      const start = ((pan + range) / (2 * range)) * (1 - share);
      el.style.setProperty("--tdg-bar-start", `${(start * 100).toFixed(2)}%`);
      el.style.setProperty("--tdg-bar-size", `${(share * 100).toFixed(2)}%`);
    };
    bar(this.barX, this.range.x, this.pan.x, this.size.width);
    bar(this.barY, this.range.y, this.pan.y, this.size.height);
  }

  /**
   * Capture-phase listeners on the stage: they see every event before the rotation wiring, and keep
   * it for themselves (stopImmediatePropagation) only when the graph is pannable.
   */
  private wire(): void {
    const stage = this.stage;
    const grab = (e: Event): void => {
      e.stopImmediatePropagation();
      e.preventDefault();
    };
    stage.addEventListener(
      "pointerdown",
      (e) => {
        if (!this.pannable || e.button !== 0) return;
        // A card moves the graph too (cards cover much of a phone's stage); a button or a field is itself.
        if (e.target instanceof Element && e.target.closest("button, input")) return;
        e.stopImmediatePropagation();
        this.drag = { id: e.pointerId, x: e.clientX, y: e.clientY };
        stage.setPointerCapture?.(e.pointerId);
        stage.dataset.dragging = "";
      },
      { capture: true },
    );
    stage.addEventListener(
      "pointermove",
      (e) => {
        const drag = this.drag;
        if (!drag || e.pointerId !== drag.id) return;
        e.stopImmediatePropagation();
        const [dx, dy] = [e.clientX - drag.x, e.clientY - drag.y];
        this.drag = { id: e.pointerId, x: e.clientX, y: e.clientY };
        const y = this.pan.y;
        if (this.panBy(-dx, -dy)) this.changed();
        // A finger past the graph's top or bottom edge scrolls the page on (walkthrough 14: on a phone a
        // swipe on a big graph at its end moved nothing, and the stage filled the window).
        // (Where it pans only sideways the page scrolls by itself: touch-action pan-y.)
        if (e.pointerType === "touch" && this.range.y > 0) scrollBy(0, y - dy - this.pan.y);
      },
      { capture: true },
    );
    const end = (e: PointerEvent): void => {
      if (!this.drag || e.pointerId !== this.drag.id) return;
      e.stopImmediatePropagation();
      this.drag = null;
      delete stage.dataset.dragging;
    };
    stage.addEventListener("pointerup", end, { capture: true });
    stage.addEventListener("pointercancel", end, { capture: true });
    stage.addEventListener(
      "keydown",
      (e) => {
        const d = KEYS[e.key];
        if (!d || !this.pannable || e.target !== stage || e.altKey || e.ctrlKey || e.metaKey) return;
        grab(e);
        const step = e.shiftKey
          ? [this.size.width - 2 * KEY_STEP, this.size.height - 2 * KEY_STEP]
          : [KEY_STEP, KEY_STEP];
        if (this.panBy(d[0] * Math.max(KEY_STEP, step[0]!), d[1] * Math.max(KEY_STEP, step[1]!)))
          this.changed();
      },
      { capture: true },
    );
    // Where `overflow: clip` is unknown, focusing a card out of view would scroll the stage itself.
    stage.addEventListener("scroll", () => {
      stage.scrollTop = 0;
      stage.scrollLeft = 0;
    });
    // A sideways wheel or trackpad swipe pans; an upright one keeps scrolling the page.
    stage.addEventListener(
      "wheel",
      (e) => {
        if (this.range.x <= 0) return;
        const dx = e.shiftKey && !e.deltaX ? e.deltaY : e.deltaX;
        if (Math.abs(dx) <= Math.abs(e.shiftKey ? 0 : e.deltaY)) return;
        grab(e);
        if (this.panBy(dx, 0)) this.changed();
      },
      { capture: true, passive: false },
    );
  }
}
