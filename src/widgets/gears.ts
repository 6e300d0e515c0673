// The gears, live: turn the x gear (drag it, the slider, its arrow keys, the − and + buttons) and the
// u and y gears follow by their ratios, g'(x) and f'(u)·g'(x), recomputed by the TypeScript engine at
// every step. The live widget is a copy of the static figure the build drew (plugins/tinydag_mkdocs/
// gears.py), so it has its size and shape; here it gets its controls and its numbers move.

import { TinyDagError } from "../inference/errors";
import { h, setAttr, setText, svgElement, uid } from "../player/shared/dom";
import { equalsSign, operand, productText, proseNumber, shownAs } from "../player/model/format";
import { readNumber } from "../player/model/verdict";
import { outside, refusal } from "../player/controls/valuecheck";
import { type I18n, makeI18n } from "../player/shared/i18n";
import { fieldText } from "./fields";
import {
  agrees,
  angleBetween,
  anglesAt,
  CENTER_Y,
  type Chain,
  type Choice,
  chainAt,
  fixed,
  type GearName,
  type GearsData,
  pointerAngle,
  type Step,
  snap,
  TIP,
  stepBetween,
  type Turns,
  train,
  turnArc,
  type Wheel,
} from "./gears-model";
import { TrainView, WHEELS, type WheelName } from "./gears-train";
import { isKink, sidesOf } from "./knob-math";

const GEARS: readonly GearName[] = ["x", "u", "y"];
/** Where a step starts: the chain then, and the hands' angles (a drag's start). */
interface Origin {
  chain: Chain;
  angles: Turns;
}
const TWEEN_MS = 200; // one step's turn, eased; none with prefers-reduced-motion
const MASK = 1200; // the arcs' masks cover the whole figure from any gear's centre

interface GearParts {
  group: SVGGElement;
  turn: SVGPathElement | null;
  value: SVGTextElement | null;
  still: SVGTextElement | null;
}

const signOf = (ratio: number): string => (ratio === 0 ? "zero" : ratio > 0 ? "positive" : "negative");

class Gears {
  private readonly i18n: I18n;
  private readonly live: HTMLElement;
  private readonly svg: SVGSVGElement;
  private readonly parts: Record<WheelName, GearParts>;
  private readonly train: TrainView;
  private readonly slider: HTMLInputElement;
  private readonly field: HTMLInputElement;
  private readonly step: HTMLElement;
  private readonly reduced: MediaQueryList;
  private chain: Chain;
  private choice: Choice; // the inner function the reader chose (data's own at first)
  private readonly masks: Partial<Record<GearName, SVGMaskElement>> = {}; // maskTurns
  private readonly target: Turns = { x: 0, u: 0, y: 0 }; // where each hand is going (degrees)
  private readonly shown: Turns = { x: 0, u: 0, y: 0 }; // where it is drawn now
  private tween = { from: { x: 0, u: 0, y: 0 } as Turns, start: 0, frame: 0 };

  constructor(
    root: HTMLElement,
    private readonly data: GearsData,
    strings: Record<string, string>,
  ) {
    this.i18n = makeI18n(root.lang || document.documentElement.lang || "en", strings);
    const original = root.querySelector<HTMLElement>(".tdg-gears[data-gears-static]");
    if (!original) throw new Error("the gears widget has no static figure to start from");
    this.live = original.cloneNode(true) as HTMLElement;
    this.live.removeAttribute("data-gears-static");
    this.live.classList.add("tdg-gears--live");
    this.svg = this.live.querySelector("svg")!;
    const part = <T extends Element>(gear: WheelName, selector: string): T | null =>
      this.live.querySelector<T>(`.tdg-gear-${gear} ${selector}`);
    this.parts = Object.fromEntries(
      WHEELS.map((g) => [
        g,
        {
          group: this.live.querySelector<SVGGElement>(`.tdg-gear-${g}`)!,
          turn: part<SVGPathElement>(g, ".tdg-gear-turn"),
          value: part<SVGTextElement>(g, ".tdg-gear-value"),
          still: part<SVGTextElement>(g, ".tdg-gear-still"),
        },
      ]),
    ) as Record<WheelName, GearParts>;
    this.maskTurns();
    this.chain = data.start;
    this.train = new TrainView(
      this.live,
      train(data.start.du_dx, data.start.dy_du),
      this.i18n.t("gears_not_to_scale"),
    );
    this.choice = data.choices?.[0] ?? data;
    this.reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
    this.step = this.live.querySelector(".tdg-gears-step")!;
    setAttr(this.step, "aria-live", "polite");
    [this.slider, this.field] = this.buildBar();
    this.buildChoice();
    this.syncControls();
    this.listenToDrags();
    const container = original.closest(".tdg-widget__static") ?? original;
    container.after(this.live);
  }

  /** The static note's place becomes the controls: − button, slider, + button, exact value. */
  private buildBar(): [HTMLInputElement, HTMLInputElement] {
    const { i18n, data } = this;
    const [low, high] = data.range;
    const step = proseNumber(data.step, i18n.lang);
    const slider = h("input", {
      type: "range",
      class: "tdg-gears-slider",
      min: low,
      max: high,
      step: data.step,
      value: data.x,
      "aria-label": i18n.t("gears_slider"),
    });
    const field = h("input", {
      type: "text",
      class: "tdg-gears-field",
      spellcheck: "false",
      autocomplete: "off",
      value: fieldText(data.x, i18n.lang),
      "aria-label": i18n.t("gears_number"),
    });
    const button = (text: string, label: string, sign: number): HTMLButtonElement => {
      const b = h("button", { type: "button", class: "tdg-gears-button", "aria-label": label }, text);
      b.addEventListener("click", () => this.go(snap(data, this.chain.x + sign * data.step)));
      return b;
    };
    const bar = this.live.querySelector<HTMLElement>(".tdg-gears-bar")!;
    bar.replaceChildren(
      h("span", { class: "tdg-gears-x", "aria-hidden": "true" }, "x"),
      button("\u2212", i18n.t("gears_less", { step }), -1),
      slider,
      button("+", i18n.t("gears_more", { step }), 1),
      field,
    );
    setAttr(bar, "role", "group");
    setAttr(bar, "aria-label", i18n.t("gears_controls"));
    slider.addEventListener("input", () => this.go(Number(slider.value)));
    // Out of the slider's range, x goes to its end; either way the field then says the x in use
    // (walkthrough 16: 9 stayed in it while the gears, at the end already, said x = 3).
    field.addEventListener("change", () => {
      const text = field.value.trim();
      // Read as the lesson's fields read a number ("1/2", "1 000" in ru and et; an English "2,718" is
      // no number: 2.718 or 2718? Walkthrough 32: "1,000" stayed in the field while x was 1).
      const typed = readNumber(text, i18n.lang);
      // Not taken, or taken to the range's end: the sentence under the bar says why, until the next
      // turn (walkthrough 32: "abc" was put back without a word; walk 33: 99 became 3 without one),
      // before the step's own words where x moved.
      if (Number.isNaN(typed)) {
        if (text) setText(this.step, refusal("x", text, this.chain.x, i18n));
      } else {
        const x = Math.min(high, Math.max(low, typed));
        const moved = x !== this.chain.x;
        this.go(x);
        const words = x === typed ? "" : outside("x", text, x, [low, high], i18n);
        if (words) setText(this.step, moved ? `${words} ${this.step.textContent}` : words);
      }
      this.syncControls();
    });
    return [slider, field];
  }

  /** The menu of inner functions, where the static figure names the block's own. */
  private buildChoice(): void {
    const place = this.live.querySelector<HTMLElement>(".tdg-gears-choice");
    const choices = this.data.choices ?? [];
    if (!place || choices.length < 2) return;
    const menu = h(
      "select",
      { class: "tdg-gears-menu", "aria-label": this.i18n.t("gears_choice_label") },
      ...choices.map((c, i) => h("option", { value: String(i) }, c.inner)),
    );
    place.querySelector(".tdg-gears-choice-value")!.replaceWith(menu);
    menu.addEventListener("change", () => this.choose(choices[Number(menu.value)]!));
  }

  /** Another inner function: the chain is recomputed at the same x and every gear goes to its angle. */
  private choose(choice: Choice): void {
    let chain: Chain;
    try {
      chain = chainAt({ ...choice, outer: this.data.outer }, this.chain.x);
    } catch (error) {
      if (!(error instanceof TinyDagError)) throw error;
      setText(this.step, this.i18n.t("gears_undefined", { x: proseNumber(this.chain.x, this.i18n.lang) }));
      return;
    }
    this.choice = choice;
    this.turnTo(chain);
    for (const [row, code] of [
      ["inner", `u = ${choice.inner}`],
      ["backward", `y = ${choice.composed}`],
    ] as const) {
      const cell = this.live.querySelector(`[data-row="${row}"] dt code`);
      if (cell) setText(cell, code);
    }
    this.write(null);
  }

  /**
   * Dragging the x gear around its centre turns x: a full turn is 360 / degrees_per_unit units. A drag
   * is one step, from where it started (walkthrough 15: the words and the arcs told only its last
   * move, "from x = 2.412 to 2.506"), x to three decimals as the figure writes it.
   */
  private listenToDrags(): void {
    const gear = this.parts.x.group;
    let drag: (Origin & { last: number; turned: number }) | null = null;
    const angleAt = (event: PointerEvent): number => {
      const matrix = this.svg.getScreenCTM();
      if (!matrix) return 0;
      const centre = new DOMPoint(this.train.pairs[0].driver.cx, CENTER_Y).matrixTransform(matrix);
      return pointerAngle(event.clientX - centre.x, event.clientY - centre.y);
    };
    // touch-action does not reach SVG shapes: a finger on the x gear would pan the page after a few
    // moves (pointercancel). A cancelled touchstart keeps the whole touch for the gear.
    gear.addEventListener("touchstart", (event) => event.preventDefault(), { passive: false });
    gear.addEventListener("pointerdown", (event) => {
      gear.setPointerCapture(event.pointerId);
      drag = { chain: this.chain, angles: { ...this.target }, last: angleAt(event), turned: 0 };
      event.preventDefault();
    });
    gear.addEventListener("pointermove", (event) => {
      if (drag === null) return;
      const angle = angleAt(event);
      const [low, high] = this.data.range;
      const per = this.data.degrees_per_unit;
      drag.turned += angleBetween(drag.last, angle);
      drag.last = angle;
      const x = Math.min(high, Math.max(low, drag.chain.x + drag.turned / per));
      drag.turned = (x - drag.chain.x) * per; // past an end, turning back moves x at once
      this.go(Number(x.toFixed(3)), drag);
    });
    const end = (): void => {
      drag = null;
    };
    gear.addEventListener("pointerup", end);
    gear.addEventListener("pointercancel", end);
  }

  /**
   * Move x to `to`: every gear goes to the angle of its new value, and everything written follows,
   * the step told from `origin` (a drag's start) or from where x was.
   */
  go(to: number, origin?: Origin): void {
    if (to === this.chain.x) return;
    const from = origin?.chain ?? this.chain;
    let chain: Chain;
    try {
      chain = chainAt({ ...this.choice, outer: this.data.outer }, to);
    } catch (error) {
      if (!(error instanceof TinyDagError)) throw error;
      this.syncControls();
      setText(this.step, this.i18n.t("gears_undefined", { x: proseNumber(to, this.i18n.lang) }));
      return;
    }
    this.turnTo(chain, origin?.angles);
    this.syncControls();
    this.write(stepBetween(from, chain));
  }

  /**
   * Each hand to its value's angle (from the chosen function's start), the swept arc behind it: from
   * `origin` (a drag's start), else from where the hand was going.
   */
  private turnTo(chain: Chain, origin: Turns = { ...this.target }): void {
    this.chain = chain;
    this.train.layout(train(chain.du_dx, chain.dy_du));
    const angles = anglesAt(chain, this.choice.start, this.data.degrees_per_unit);
    for (const g of GEARS) {
      const arc = this.train.wheel(g).radius + TIP + 7; // just outside the teeth
      setAttr(this.parts[g].turn!, "d", turnArc(origin[g], angles[g] - origin[g], arc));
      this.clearOfNeighbours(g, arc);
      this.target[g] = angles[g];
    }
    this.train.aim(angles);
    this.animate();
  }

  /** Each hand's swept arc gets a mask (its gear's own coordinates), for the gears it passes over. */
  private maskTurns(): void {
    const defs = svgElement("defs");
    for (const g of GEARS) {
      const id = uid("tdg-gear-turn-mask");
      const [x, size] = [-MASK / 2, MASK];
      const mask = svgElement("mask", {
        id,
        maskUnits: "userSpaceOnUse",
        x,
        y: x,
        width: size,
        height: size,
      });
      mask.append(svgElement("rect", { x, y: x, width: size, height: size, fill: "white" }));
      defs.append(mask);
      setAttr(this.parts[g].turn!, "mask", `url(#${id})`);
      this.masks[g] = mask;
    }
    this.svg.prepend(defs);
  }

  /**
   * A small gear's arc runs round the gears it meshes with (its idler, or its driver): it is left out
   * where it passes over them, as if behind, so it never covers their teeth or reads as part of them.
   */
  private clearOfNeighbours(g: GearName, arc: number): void {
    const own = this.train.wheel(g);
    const others = [...WHEELS.map((w) => this.train.wheel(w)), ...this.train.pairs.map((p) => p.idler)];
    const holes = others
      .filter((w): w is Wheel => w !== null && w !== own && Math.abs(w.cx - own.cx) < arc + w.radius + TIP)
      .map((w) => svgElement("circle", { cx: fixed(w.cx - own.cx), cy: 0, r: fixed(w.radius + TIP + 4) }));
    const mask = this.masks[g]!;
    mask.replaceChildren(mask.firstChild!, ...holes);
  }

  private syncControls(): void {
    // A screen reader hears the slider's value as the figure writes it (x = 1,1 in ru and et).
    setAttr(this.slider, "aria-valuetext", `x = ${proseNumber(this.chain.x, this.i18n.lang)}`);
    if (Number(this.slider.value) !== this.chain.x) this.slider.value = String(this.chain.x);
    const text = fieldText(this.chain.x, this.i18n.lang); // the x in use, written as the readouts write it
    if (this.field.value !== text) this.field.value = text;
  }

  /** Every number on the figure, the readout and the sentence of the step just taken. */
  private write(step: Step | null): void {
    const { chain } = this;
    const { i18n } = this;
    const n = (x: number): string => proseNumber(x, i18n.lang);
    const signs: Record<GearName, string> = {
      x: "positive",
      u: signOf(chain.du_dx),
      y: signOf(chain.product),
    };
    for (const g of WHEELS) {
      const parts = this.parts[g];
      const sign = signs[g === "u2" ? "u" : g];
      setAttr(parts.group, "data-sign", sign);
      parts.group.classList.toggle("is-still", sign === "zero");
      if (g === "u2") continue;
      setText(parts.value!, `${g} = ${n(chain[g])}`);
      setText(parts.still!, sign === "zero" ? i18n.t("gears_still_short") : "");
    }
    const ratios = [chain.du_dx, chain.dy_du];
    this.live.querySelectorAll<SVGGElement>(".tdg-gear-ratio").forEach((badge, i) => {
      setAttr(badge, "data-sign", signOf(ratios[i]!));
      setText(badge.querySelector(".tdg-gear-ratio-value")!, `\u00d7${n(ratios[i]!)}`);
    });
    const number = (row: string): Element =>
      this.live.querySelector(`[data-row="${row}"] .tdg-gears-number`)!;
    setText(number("inner"), n(chain.du_dx));
    setText(number("outer"), n(chain.dy_du));
    // "≈" where the ratios as shown do not multiply to the product as shown (walkthrough 26: "14.98 × 3 =
    // 44.93"; the lesson's number rule)
    setText(number("product"), productText(chain.dy_du, chain.du_dx, chain.product, i18n.lang));
    setText(number("backward"), n(chain.backward));
    setText(
      this.live.querySelector(".tdg-gears-agree")!,
      i18n.t(agrees(chain.product, chain.backward) ? "gears_agree" : "gears_differ"),
    );
    const title = this.svg.querySelector("title");
    if (title)
      setText(
        title,
        i18n.t("gears_figure_title", {
          x: n(chain.x),
          inner: this.choice.inner,
          outer: this.data.outer,
          du_dx: n(chain.du_dx),
          dy_du: n(chain.dy_du),
        }),
      );
    setText(this.step, this.sentence(step));
  }

  /**
   * The step in words, with the numbers the table showed at its start: the two ratios, their
   * product times Δx (the estimate), then how far y really moved, and whether the two agree.
   */
  private sentence(step: Step | null): string {
    const { i18n } = this;
    const n = (x: number): string => proseNumber(x, i18n.lang);
    const words: string[] = [];
    if (step) {
      const estimate = n(step.estimate.y);
      const moved = n(step.actual.y);
      words.push(
        i18n.t("gears_step", {
          from: n(step.from.x),
          to: n(step.to.x),
          dx: n(step.dx),
          du_dx: n(step.from.du_dx),
          dy_du: n(step.from.dy_du),
          du_dx_factor: operand(n(step.from.du_dx)), // after "×": "× (−2)"
          dx_factor: operand(n(step.dx)),
          estimate,
          sign: equalsSign(
            shownAs(step.from.dy_du) * shownAs(step.from.du_dx) * shownAs(step.dx),
            step.estimate.y,
          ),
          dy: moved,
        }),
        estimate === moved ? i18n.t("gears_step_same") : i18n.t("gears_step_drift", { to: n(step.to.x) }),
      );
    } else words.push(i18n.t("gears_hint"));
    // At the bend of relu(x - 1) backward() takes 0, yet a turn up moves u (walk 36: "the u gear stands
    // still", and the next turn moved it): the two sides' ratios, as the knob above shows them.
    const sides = isKink(this.choice.inner, this.chain.x) && sidesOf(this.choice.inner, this.chain.x);
    if (sides)
      words.push(
        i18n.t("gears_kink", {
          x: n(this.chain.x),
          inner: this.choice.inner,
          left: n(sides.left),
          right: n(sides.right),
          slope: n(this.chain.du_dx),
        }),
      );
    else if (this.chain.du_dx === 0) words.push(i18n.t("gears_still", { name: "u" }));
    else if (this.chain.product === 0) words.push(i18n.t("gears_still", { name: "y" }));
    return words.join(" ");
  }

  /** Ease each hand from where it is drawn to its target; at once when motion is reduced. */
  private animate(): void {
    cancelAnimationFrame(this.tween.frame);
    if (this.reduced.matches) {
      for (const g of GEARS) this.draw(g, this.target[g]);
      return;
    }
    this.tween = { from: { ...this.shown }, start: performance.now(), frame: 0 };
    const frame = (now: number): void => {
      const t = Math.min(1, (now - this.tween.start) / TWEEN_MS);
      const eased = 1 - (1 - t) ** 3;
      for (const g of GEARS) this.draw(g, this.tween.from[g] + (this.target[g] - this.tween.from[g]) * eased);
      if (t < 1) this.tween.frame = requestAnimationFrame(frame);
    };
    this.tween.frame = requestAnimationFrame(frame);
  }

  private draw(gear: GearName, angle: number): void {
    this.shown[gear] = angle;
    if (gear === "y") this.train.draw(this.shown); // x, u and y are drawn together, once y's angle is in
  }
}

export function mount(root: HTMLElement, data: GearsData, strings: Record<string, string>): void {
  new Gears(root, data, strings);
}
