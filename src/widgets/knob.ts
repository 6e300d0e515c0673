// The sensitivity knob, live: drag the point x, shrink the nudge h, and watch the secant's slope
// Δy / h approach the tangent's slope dy/dx (the engine's x.grad); at relu's kink it does not.
// The build embedded each preset's samples (Python engine); a typed expression is sampled here by
// the TypeScript mirror. A bad expression shows the player's localized message and keeps the last
// curve that worked.

import type { Timeline } from "../inference/types";
import { errorText } from "../player/controls/errortext";
import { ErrorView } from "../player/controls/errorview";
import { proseNumber } from "../player/model/format";
import { isGhostOf } from "../player/model/model";
import { readNumber } from "../player/model/verdict";
import { outside, refusal } from "../player/controls/valuecheck";
import { type I18n, makeI18n } from "../player/shared/i18n";
import { type Curve, curveOf, problemOf, readout, xsOf } from "./knob-math";
import { fieldText } from "./fields";
import { dialScale, Frame, WIDTH, yBounds } from "./knob-plot";
import { buildView, drawCurve, drawDial, drawGrid, drawLines, type View } from "./knob-view";

export interface KnobData {
  expression: string;
  x: number;
  h: number;
  range: [number, number];
  h_range: [number, number];
  xs: number[];
  curves: Curve[];
  start: { y: number; y_h: number | null; slope: number };
}

const DIGITS = 6; // significant digits of the readout: enough to see Δy / h close in on dy/dx
const SPEAK_AFTER_MS = 400; // the screen reader hears the numbers once the hand rests
const NO_TIMELINE = { nodes: [] } as unknown as Timeline; // ErrorView's graph: the knob has none

/** A round slider step: about 500 steps across the range, so round points (a kink at 1) are reachable. */
export function stepOf(lo: number, hi: number): number {
  const raw = (hi - lo) / 500;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
}

/** `x` on the slider's grid, written without binary noise (1, not 1.0000000000000002). */
export function snap(x: number, step: number, lo: number, hi: number): number {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  const snapped = Number((Math.round(x / step) * step).toFixed(decimals));
  return Math.min(hi, Math.max(lo, snapped));
}

class Knob {
  private readonly i18n: I18n;
  private readonly view: View;
  private readonly errors: ErrorView;
  private readonly xs: number[];
  private readonly step: number;
  private curve: Curve;
  private shown: Curve[] = []; // the curves the plot showed, the latest last (a few)
  private frame: Frame;
  private scale: number; // the dial's full scale for this curve
  private x: number;
  private h: number;
  private pending = 0;
  private speakTimer = 0;
  private refused: string | null = null; // why a field's text was not taken: the note says so till the next change

  constructor(
    private readonly figure: HTMLElement,
    private readonly data: KnobData,
    strings: Record<string, string>,
  ) {
    this.i18n = makeI18n(figure.lang || "en", strings);
    const [lo, hi] = data.range;
    this.step = stepOf(lo, hi);
    this.xs = data.xs.length ? data.xs : xsOf(lo, hi);
    const logs: [number, number] = [Math.log10(data.h_range[0]), Math.log10(data.h_range[1])];
    this.view = buildView(
      this.i18n,
      data.curves.map((c) => c.expression),
      data.range,
      this.step,
      logs,
    );
    this.errors = new ErrorView(
      this.view.expression,
      this.view.mirror,
      this.view.message,
      this.i18n,
      () => {},
      () => null,
      errorText,
    );
    this.curve = data.curves[0]!;
    this.shown = [this.curve];
    this.frame = this.frameOf(this.curve);
    this.scale = dialScale(this.curve.slopes);
    this.x = data.x;
    this.h = data.h;
    this.view.expression.value = data.expression;
    this.errors.mark(null);
    this.wire();
  }

  attach(): void {
    const stat = this.figure.querySelector(".tdg-widget__static");
    stat?.before(this.view.root);
    drawGrid(this.view, this.frame, this.i18n.lang);
    drawCurve(this.view, this.frame, this.xs, this.curve.ys);
    this.update(false);
  }

  private frameOf(curve: Curve): Frame {
    const [y0, y1] = yBounds(curve.ys);
    return new Frame(this.data.range[0], this.data.range[1], y0, y1);
  }

  private wire(): void {
    const v = this.view;
    v.presets.addEventListener("change", () => {
      const curve = this.data.curves[Number(v.presets.value)];
      if (!curve) return;
      v.expression.value = curve.expression;
      this.errors.show(null, NO_TIMELINE, null);
      this.use(curve); // the build's samples: no recompute
    });
    v.expression.addEventListener("input", () => this.typed());
    v.xRange.addEventListener("input", () => this.setX(Number(v.xRange.value), "range"));
    v.hRange.addEventListener("input", () => this.setH(10 ** Number(v.hRange.value), "range"));
    // Typed: a number applies as it is typed ("1,5" or "1.5", as the lesson's fields read it; nothing
    // while half typed, "−"). Once committed (Enter, or the focus gone), each field says the number in use:
    // x within its range, h above 0 (walkthrough 16: −0.1 stayed in h's field while the readout worked
    // with 0.5); text that is no number gives back the value the edit started from, not a prefix applied
    // on the way (the "2,71" of an English "2,718", 2.718 or 2718?), and the note says why until the next
    // change (walkthrough 32: "abc" was put back without a word).
    for (const [field, text, name, take] of [
      [v.xNumber, () => this.xText(), "x", (value: number) => this.setX(value, "number")],
      [v.hNumber, () => this.hText(), "h", (value: number) => value > 0 && this.setH(value, "number")],
    ] as const) {
      let before: number | undefined; // the value when the edit's first key came
      field.addEventListener("input", () => {
        before ??= this[name];
        const value = readNumber(field.value, this.i18n.lang);
        if (Number.isFinite(value)) take(value);
      });
      field.addEventListener("blur", () => (before = undefined));
      field.addEventListener("change", () => {
        const typed = field.value.trim();
        const value = readNumber(typed, this.i18n.lang);
        const refused = typed !== "" && Number.isNaN(value);
        if (refused && before !== undefined) take(before);
        before = undefined;
        const kept = name === "x" ? this.x : this.shownH();
        // A number outside the range, taken to its end (or, h not above 0, not taken): the note says so
        // (walk 33: h = 0 went back to 0.001, and 1e-300 became 0.0001, without a word).
        const range = name === "x" ? this.data.range : this.data.h_range;
        this.refused = refused
          ? refusal(name, typed, kept, this.i18n)
          : value < range[0] || value > range[1]
            ? outside(name, typed, kept, range, this.i18n, name === "h" && value <= 0) // (not taken)
            : null;
        field.value = text();
        this.schedule();
      });
    }
    v.plot.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      v.plot.setPointerCapture(event.pointerId);
      this.dragTo(event);
      event.preventDefault();
    });
    v.plot.addEventListener("pointermove", (event) => {
      if (v.plot.hasPointerCapture(event.pointerId)) this.dragTo(event);
    });
  }

  private dragTo(event: PointerEvent): void {
    const box = this.view.plot.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * WIDTH;
    this.setX(this.frame.xAt(px), "drag");
  }

  private setX(value: number, from: "range" | "number" | "drag"): void {
    const [lo, hi] = this.data.range;
    this.x = from === "number" ? Math.min(hi, Math.max(lo, value)) : snap(value, this.step, lo, hi);
    this.refused = null;
    if (from !== "range") this.view.xRange.value = String(this.x);
    if (from !== "number") this.view.xNumber.value = this.xText();
    this.schedule();
  }

  private setH(value: number, from: "range" | "number"): void {
    const [min, max] = this.data.h_range;
    // Three digits, as its field writes it: the readout's difference is then the h the field shows (walk
    // 41: "0.000158" in the field, "difference 0.000158489" for x * x, whose difference is h itself).
    this.h = Math.min(max, Math.max(min, Number(value.toPrecision(3))));
    this.refused = null;
    if (from === "number") this.view.hRange.value = String(Math.log10(this.h));
    else this.view.hNumber.value = this.hText();
    this.schedule();
  }

  /** What the fields write: x exactly, h to three digits (the readout's h), the page's decimal sign. */
  private xText(): string {
    return fieldText(this.x, this.i18n.lang);
  }

  private hText(): string {
    return fieldText(this.shownH(), this.i18n.lang);
  }

  /** h as the readout and its field write it: three digits. */
  private shownH(): number {
    return Number(this.h.toPrecision(3));
  }

  private typed(): void {
    const text = this.view.expression.value;
    const [lo, hi] = this.data.range;
    const lang = this.i18n.lang;
    const problem = problemOf(text, this.xs);
    const known = this.data.curves.find((c) => c.expression === text);
    const curve = problem ? null : (known ?? curveOf(text, this.xs));
    if (problem?.kind === "engine") this.refuse(() => this.errors.show(problem.error, NO_TIMELINE, null));
    else if (problem?.kind === "other-letter")
      this.refuse(() => this.say("knob_only_x", { name: problem.name }));
    else if (problem?.kind === "nowhere" || !curve || curve.ys.every((y) => y === null))
      this.refuse(() => this.say("knob_nowhere", { lo: proseNumber(lo, lang), hi: proseNumber(hi, lang) }));
    else {
      this.errors.show(null, NO_TIMELINE, null);
      this.use(curve);
    }
  }

  /**
   * A message under the field; the plot keeps the last curve that worked, not one a half-typed text made
   * on the way, as the sandbox's dimmed graph (model.ts isGhostOf; walk 42: typing x ** y over
   * x ** 3 - 2*x left the line of the lone "x", whose numbers the readout then gave).
   */
  private refuse(show: () => void): void {
    const text = this.view.expression.value;
    const kept = [...this.shown].reverse().find((c) => !isGhostOf(c.expression, text));
    if (kept && kept !== this.curve) this.use(kept);
    show();
    const message = this.view.message;
    message.textContent = `${message.textContent} ${this.i18n.t("knob_kept")}`;
  }

  private say(key: string, params: Record<string, string>): void {
    this.errors.show(null, NO_TIMELINE, null);
    this.view.message.textContent = this.i18n.t(key, params);
    this.view.message.hidden = false;
    this.view.expression.setAttribute("aria-invalid", "true");
  }

  private use(curve: Curve): void {
    this.curve = curve;
    this.shown = [...this.shown.filter((c) => c !== curve).slice(-7), curve];
    this.refused = null;
    const index = this.data.curves.indexOf(curve);
    this.view.presets.value = index >= 0 ? String(index) : "";
    this.view.custom.selected = index < 0;
    this.frame = this.frameOf(curve);
    this.scale = dialScale(curve.slopes);
    drawGrid(this.view, this.frame, this.i18n.lang);
    drawCurve(this.view, this.frame, this.xs, curve.ys);
    this.schedule();
  }

  private schedule(): void {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => {
      this.pending = 0;
      this.update(true);
    });
  }

  private update(speak: boolean): void {
    const v = this.view;
    const lang = this.i18n.lang;
    const write = (value: number): string => proseNumber(value, lang, DIGITS);
    const r = readout(this.curve.expression, this.x, this.h);
    drawLines(v, this.frame, this.x, this.h, r.y, r.yh, r.slope);
    v.xRange.value = String(this.x);
    if (document.activeElement !== v.xNumber) v.xNumber.value = this.xText();
    v.hRange.value = String(Math.log10(this.h));
    if (document.activeElement !== v.hNumber) v.hNumber.value = this.hText();
    v.hRange.setAttribute("aria-valuetext", `h = ${write(this.h)}`);
    const t = this.i18n.t;
    let ratio = "";
    let note = "";
    if (r.y === null) note = t("knob_undefined_x", { x: write(this.x) });
    else if (r.ratio === null) ratio = t("knob_undefined_h", { xh: write(this.x + this.h) });
    else ratio = t("knob_ratio", { ratio: write(r.ratio) });
    if (r.kink && r.ratio !== null && r.left !== null && r.slope !== null)
      note = t("knob_kink", {
        x: write(this.x),
        right: write(r.ratio),
        left: write(r.left),
        slope: write(r.slope),
      });
    // At the range's right end x + h lies off the plot (xwalk 35: at x = 3 the readout said 6.5 with
    // no nudged point and no triangle drawn): the note says where it went.
    if (!note && this.x + this.h > this.data.range[1])
      note = t("knob_beyond", { xh: write(this.x + this.h) });
    v.ratio.textContent = ratio;
    v.slope.textContent = r.slope === null ? "" : t("knob_slope", { slope: write(r.slope) });
    v.gap.textContent = r.gap === null ? "" : t("knob_gap", { gap: write(r.gap) });
    v.note.textContent = this.refused ?? (note || t("knob_hint"));
    const label = t("knob_plot_label", {
      expression: this.curve.expression,
      x: write(this.x),
      h: write(this.h),
    });
    v.plot.setAttribute("aria-label", label);
    drawDial(
      v,
      this.scale,
      r.slope,
      r.ratio,
      t("knob_dial", {
        lo: write(-this.scale),
        hi: write(this.scale),
        ratio: r.ratio === null ? "\u2013" : write(r.ratio),
        slope: r.slope === null ? "\u2013" : write(r.slope),
      }),
      lang,
    );
    if (!speak) return;
    clearTimeout(this.speakTimer);
    this.speakTimer = window.setTimeout(() => {
      v.spoken.textContent = [ratio, v.slope.textContent, this.refused ?? note].filter(Boolean).join(" ");
    }, SPEAK_AFTER_MS);
  }
}

export function mount(figure: HTMLElement, data: KnobData, strings: Record<string, string>): void {
  new Knob(figure, data, strings).attach();
}
