// The knob's live DOM: the plot (SVG, same viewBox as the static figure) and the panel of controls.
// Only building and drawing here; knob.ts owns the state and the events.

import { h, svgElement, uid } from "../player/shared/dom";
import { proseNumber } from "../player/model/format";
import type { I18n } from "../player/shared/i18n";
import {
  BOTTOM,
  curvePath,
  DIAL_LABELS,
  DIAL_RADIUS,
  DIAL_SWEEP,
  dialAngle,
  dialArc,
  type Frame,
  HEIGHT,
  LEFT,
  lineEnds,
  n,
  RIGHT,
  TOP,
  ticks,
  WIDTH,
  X_TICKS,
  Y_TICKS,
} from "./knob-plot";

const s = svgElement;

export interface View {
  root: HTMLElement;
  plot: SVGSVGElement;
  grid: SVGGElement;
  curve: SVGPathElement;
  tangent: SVGLineElement;
  secant: SVGLineElement;
  run: SVGLineElement; // the nudge h, drawn along x
  rise: SVGLineElement; // Δy, drawn along y
  runLabel: SVGTextElement; // "h"
  riseLabel: SVGTextElement; // "Δy"
  nudged: SVGCircleElement;
  point: SVGCircleElement;
  presets: HTMLSelectElement;
  custom: HTMLOptionElement; // selected while the field holds an expression of the reader's own
  expression: HTMLInputElement;
  mirror: HTMLElement;
  message: HTMLElement;
  xRange: HTMLInputElement;
  xNumber: HTMLInputElement;
  hRange: HTMLInputElement;
  hNumber: HTMLInputElement;
  ratio: HTMLElement;
  slope: HTMLElement;
  gap: HTMLElement;
  note: HTMLElement;
  spoken: HTMLElement; // the screen reader's summary, written once the hand rests
  dial: SVGSVGElement; // the knob: a pointer at dy/dx (dashed) and one at Δy / h (solid)
  dialSlope: SVGLineElement;
  dialRatio: SVGLineElement;
  dialLow: SVGTextElement;
  dialHigh: SVGTextElement;
}

/** The dial, as knob_svg.dial draws it: face, scale, five ticks, −S 0 S, two pointers, the hub. */
function buildDial(): Pick<View, "dial" | "dialSlope" | "dialRatio" | "dialLow" | "dialHigh"> {
  const dial = s("svg", { class: "tdg-knob__dial", viewBox: "-44 -44 88 88", role: "img" });
  const a = (DIAL_SWEEP * Math.PI) / 180;
  const label = (x: number, y: number): SVGTextElement =>
    s("text", { class: "tdg-knob__dial-label", x: n(x), y: n(y), "text-anchor": "middle" });
  const [lx, ly] = [DIAL_LABELS * Math.sin(a), -DIAL_LABELS * Math.cos(a) + 3];
  const dialLow = label(-lx, ly);
  const zero = label(0, -DIAL_LABELS + 4);
  zero.textContent = "0";
  const dialHigh = label(lx, ly);
  const pointer = (css: string): SVGLineElement =>
    s("line", { class: css, x1: 0, y1: 0, x2: 0, y2: -(DIAL_RADIUS - 5) });
  const dialSlope = pointer("tdg-knob__dial-slope");
  const dialRatio = pointer("tdg-knob__dial-ratio");
  dial.append(
    s("circle", { class: "tdg-knob__dial-face", r: 43 }),
    s("path", { class: "tdg-knob__dial-scale", d: dialArc() }),
    ...[-1, -0.5, 0, 0.5, 1].map((f) =>
      s("line", {
        class: "tdg-knob__dial-tick",
        x1: 0,
        y1: -(DIAL_RADIUS - 4),
        x2: 0,
        y2: -(DIAL_RADIUS + 1),
        transform: `rotate(${n(DIAL_SWEEP * f)})`,
      }),
    ),
    dialLow,
    zero,
    dialHigh,
    dialSlope,
    dialRatio,
    s("circle", { class: "tdg-knob__dial-hub", r: 3.5 }),
  );
  return { dial, dialSlope, dialRatio, dialLow, dialHigh };
}

/** The dial's scale (±scale) and its pointers: dy/dx, and Δy / h while it has a value. */
export function drawDial(
  view: View,
  scale: number,
  slope: number | null,
  ratio: number | null,
  label: string,
  lang: string,
): void {
  view.dialLow.textContent = proseNumber(-scale, lang, 6);
  view.dialHigh.textContent = proseNumber(scale, lang, 6);
  for (const [line, value] of [
    [view.dialSlope, slope],
    [view.dialRatio, ratio],
  ] as const) {
    line.style.display = value === null ? "none" : "";
    if (value !== null) line.setAttribute("transform", `rotate(${n(dialAngle(value, scale))})`);
  }
  view.dial.setAttribute("aria-label", label);
}

export function buildView(
  i18n: I18n,
  expressions: readonly string[],
  range: readonly [number, number],
  step: number,
  hLog: readonly [number, number],
): View {
  const plot = s("svg", { class: "tdg-knob__plot", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img" });
  const grid = s("g", { "aria-hidden": "true" });
  const curve = s("path", { class: "tdg-knob__curve" });
  const clip = s("svg", {
    class: "tdg-knob__clip",
    x: LEFT,
    y: TOP,
    width: WIDTH - LEFT - RIGHT,
    height: HEIGHT - TOP - BOTTOM,
    viewBox: `${LEFT} ${TOP} ${WIDTH - LEFT - RIGHT} ${HEIGHT - TOP - BOTTOM}`,
  });
  const tangent = s("line", { class: "tdg-knob__tangent" });
  const secant = s("line", { class: "tdg-knob__secant" });
  const run = s("line", { class: "tdg-knob__run" });
  const rise = s("line", { class: "tdg-knob__rise" });
  const runLabel = s("text", { class: "tdg-knob__leg", "text-anchor": "middle" });
  const riseLabel = s("text", { class: "tdg-knob__leg", "dominant-baseline": "middle" });
  runLabel.textContent = "h";
  riseLabel.textContent = "Δy";
  const nudged = s("circle", { class: "tdg-knob__nudged", r: 4.5 }); // x + h may lie past the range: clipped
  // The curve over the lines through the point: where the secant lies along it (relu right of its
  // kink) the curve stays in sight, the wider secant showing at its sides.
  clip.append(tangent, secant, curve, run, rise, runLabel, riseLabel, nudged);
  const point = s("circle", { class: "tdg-knob__point", r: 7 });
  plot.append(grid, clip, point);

  const ids = {
    presets: uid("tdg-knob-f"),
    expression: uid("tdg-knob-e"),
    x: uid("tdg-knob-x"),
    h: uid("tdg-knob-h"),
  };
  const custom = h("option", { value: "", hidden: true }, i18n.t("knob_custom"));
  const presets = h(
    "select",
    { id: ids.presets, class: "tdg-knob__select" },
    ...expressions.map((e, i) => h("option", { value: String(i) }, e)),
    custom,
  );
  const expression = h("input", {
    id: ids.expression,
    class: "tdg-knob__input",
    type: "text",
    spellcheck: "false",
    autocomplete: "off",
    autocapitalize: "off",
    "aria-describedby": `${ids.expression}-msg`,
  });
  const mirror = h("span", { class: "tdg-knob__mirror", "aria-hidden": "true" });
  const message = h("p", { class: "tdg-knob__message", id: `${ids.expression}-msg`, hidden: true });
  const [lo, hi] = range;
  const xRange = h("input", { type: "range", id: ids.x, class: "tdg-knob__range", min: lo, max: hi, step });
  // Text, not type=number: a number field shows "1.5" whatever the page's language; this one shows
  // and accepts "1,5" in ru and et, as the readouts write it.
  const field = (label: string): HTMLInputElement =>
    h("input", {
      type: "text",
      class: "tdg-knob__number",
      spellcheck: "false",
      autocomplete: "off",
      "aria-label": label,
    });
  const xNumber = field(i18n.t("knob_x_field"));
  const hRange = h("input", {
    type: "range",
    id: ids.h,
    class: "tdg-knob__range",
    min: hLog[0],
    max: hLog[1],
    step: 0.1,
  });
  const hNumber = field(i18n.t("knob_h_field"));
  const ratio = h("span", { class: "tdg-knob__ratio" });
  const slope = h("span", { class: "tdg-knob__slope" });
  const gap = h("span", { class: "tdg-knob__gap" });
  const note = h("p", { class: "tdg-knob__note" });
  const spoken = h("p", { class: "tdg-sr-only", "aria-live": "polite" });
  const dialParts = buildDial();
  const panel = h(
    "div",
    { class: "tdg-knob__panel" },
    h(
      "div",
      { class: "tdg-knob__row tdg-knob__row--f" },
      h("label", { for: ids.presets, class: "tdg-knob__label" }, i18n.t("knob_presets")),
      presets,
      h(
        "label",
        { for: ids.expression, class: "tdg-knob__label tdg-knob__label--f" },
        i18n.t("knob_function"),
      ),
      h("span", { class: "tdg-knob__field" }, mirror, expression),
    ),
    h(
      "div",
      { class: "tdg-knob__row" },
      h("label", { for: ids.x, class: "tdg-knob__label" }, i18n.t("knob_x")),
      xRange,
      xNumber,
    ),
    h(
      "div",
      { class: "tdg-knob__row" },
      h("label", { for: ids.h, class: "tdg-knob__label" }, i18n.t("knob_h")),
      hRange,
      hNumber,
    ),
    h(
      "div",
      { class: "tdg-knob__result" },
      dialParts.dial,
      h(
        "div",
        { class: "tdg-knob__words" },
        h("p", { class: "tdg-knob__readout" }, ratio, " ", slope, " ", gap),
        message, // a refused function's message takes the note's place: the panel keeps its height
        note,
      ),
    ),
    spoken,
  );
  const root = h("div", { class: "tdg-knob tdg-knob--live" }, plot, panel);
  return {
    root,
    plot,
    grid,
    curve,
    tangent,
    secant,
    run,
    rise,
    runLabel,
    riseLabel,
    nudged,
    point,
    presets,
    custom,
    expression,
    mirror,
    message,
    xRange,
    xNumber,
    hRange,
    hNumber,
    ratio,
    slope,
    gap,
    note,
    spoken,
    ...dialParts,
  };
}

/** Grid lines and tick labels of a frame (redrawn when the curve, and so the y range, changes). */
export function drawGrid(view: View, frame: Frame, lang: string): void {
  const parts: SVGElement[] = [];
  const bottom = HEIGHT - BOTTOM;
  for (const t of ticks(frame.x0, frame.x1, X_TICKS)) {
    const px = n(frame.px(t));
    parts.push(
      s("line", {
        class: `tdg-knob__grid${t === 0 ? " tdg-knob__axis" : ""}`,
        x1: px,
        y1: TOP,
        x2: px,
        y2: bottom,
      }),
    );
    const label = s("text", { class: "tdg-knob__tick", x: px, y: bottom + 17, "text-anchor": "middle" });
    label.textContent = proseNumber(t, lang, 6);
    parts.push(label);
  }
  for (const t of ticks(frame.y0, frame.y1, Y_TICKS)) {
    const py = n(frame.py(t));
    const line = s("line", {
      class: `tdg-knob__grid${t === 0 ? " tdg-knob__axis" : ""}`,
      x1: LEFT,
      y1: py,
      x2: WIDTH - RIGHT,
      y2: py,
    });
    const label = s("text", {
      class: "tdg-knob__tick",
      x: LEFT - 6,
      y: py,
      "text-anchor": "end",
      "dominant-baseline": "middle",
    });
    label.textContent = proseNumber(t, lang, 6);
    parts.push(line, label);
  }
  view.grid.replaceChildren(...parts);
}

export function drawCurve(
  view: View,
  frame: Frame,
  xs: readonly number[],
  ys: readonly (number | null)[],
): void {
  view.curve.setAttribute("d", curvePath(frame, xs, ys));
}

function setLine(line: SVGLineElement, ends: readonly number[] | null): void {
  line.style.display = ends ? "" : "none";
  if (!ends) return;
  for (const [i, name] of (["x1", "y1", "x2", "y2"] as const).entries()) line.setAttribute(name, n(ends[i]!));
}

function setCircle(circle: SVGCircleElement, cx: number | null, cy: number | null): void {
  circle.style.display = cx === null || cy === null ? "none" : "";
  if (cx !== null && cy !== null) {
    circle.setAttribute("cx", n(cx));
    circle.setAttribute("cy", n(cy));
  }
}

const LEG_MIN = 24; // viewBox units: a shorter leg of the nudge triangle goes unnamed

function setText(label: SVGTextElement, shown: boolean, x: number, y: number): void {
  label.style.display = shown ? "" : "none";
  label.setAttribute("x", n(x));
  label.setAttribute("y", n(y));
}

/** The point, the nudged point, the secant, the tangent and the h / Δy legs. */
export function drawLines(
  view: View,
  frame: Frame,
  x: number,
  h: number,
  y: number | null,
  yh: number | null,
  slope: number | null,
): void {
  const onPlot = y !== null && frame.py(y) >= TOP && frame.py(y) <= HEIGHT - BOTTOM; // not in the margin
  setCircle(view.point, onPlot ? frame.px(x) : null, onPlot ? frame.py(y) : null);
  setCircle(view.nudged, yh === null ? null : frame.px(x + h), yh === null ? null : frame.py(yh));
  setLine(view.tangent, y !== null && slope !== null ? lineEnds(frame, x, y, slope) : null);
  const both = y !== null && yh !== null;
  setLine(view.secant, both ? lineEnds(frame, x, y, (yh - y) / h) : null);
  setLine(view.run, both ? [frame.px(x), frame.py(y), frame.px(x + h), frame.py(y)] : null);
  setLine(view.rise, both ? [frame.px(x + h), frame.py(y), frame.px(x + h), frame.py(yh)] : null);
  // "h" under the run and "Δy" beside the rise, when the leg is long enough to carry its name
  const [px, py, pxh, pyh] = both ? [frame.px(x), frame.py(y), frame.px(x + h), frame.py(yh)] : [0, 0, 0, 0];
  setText(view.runLabel, both && Math.abs(pxh - px) >= LEG_MIN, (px + pxh) / 2, py + (pyh <= py ? 16 : -6));
  setText(view.riseLabel, both && Math.abs(pyh - py) >= LEG_MIN, pxh + 5, (py + pyh) / 2);
}
