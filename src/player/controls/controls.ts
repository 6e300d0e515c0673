// The sandbox's controls as DOM: built once per sandbox, labelled from the strings file, with the
// names the tests and the lesson text rely on (input[name=expression], input[name=time], ...).
// No behaviour here; sandbox.ts wires the events.

import type { TimelineNode } from "../../inference/types";
import { h, uid } from "../shared/dom";
import type { I18n } from "../shared/i18n";
import type { Preset } from "../model/model";
import { writeProduct } from "../stage/labels";
import { fieldText } from "../../widgets/fields";

export interface Controls {
  player: HTMLElement;
  expression: HTMLInputElement;
  mirror: HTMLElement; // the expression's text again, under the input, with the error span marked
  error: HTMLElement;
  presets: HTMLButtonElement[];
  variables: HTMLElement; // filled by buildSliders
  stage: HTMLElement;
  canvas: HTMLCanvasElement;
  edgeLabels: HTMLElement;
  cards: HTMLElement;
  play: HTMLButtonElement;
  forward: HTMLButtonElement;
  backward: HTMLButtonElement;
  transport: HTMLElement; // Play, the direction and the timeline
  time: HTMLInputElement;
  timeText: HTMLElement;
  stepBack: HTMLButtonElement; // one step of the timeline, as the arrow keys on it do
  stepOn: HTMLButtonElement;
  localDerivatives: HTMLInputElement;
  finalGradients: HTMLInputElement;
  resetView: HTMLButtonElement;
  copyLink: HTMLButtonElement;
  status: HTMLElement;
  topo: HTMLElement;
  codeLine: HTMLElement;
  nudgeLeaf: HTMLSelectElement;
  nudgeH: HTMLInputElement;
  nudgeRun: HTMLButtonElement;
  nudgeResult: HTMLElement;
  tableBody: HTMLTableSectionElement;
  live: HTMLElement;
  caption: HTMLElement;
}

type Translate = I18n["t"];

/** A button that dispatches `action` (wiring.ts finds it by its data-action). */
function actionButton(
  action: string,
  label: string,
  className = "tdg-button",
  attrs: Record<string, string> = {},
): HTMLButtonElement {
  return h("button", { type: "button", class: className, "data-action": action, ...attrs }, label);
}

export function buildControls(i18n: I18n, presets: Preset[]): Controls {
  const t = i18n.t;
  const id = uid("tdg");
  const [field, input] = expressionField(t, id);
  const [presetGroup, presetButtons] = presetChips(t, id, presets);
  const variables = h("div", { class: "tdg-vars-list" });
  const view = stageOf(id);
  const [transport, playback] = transportBar(t, id);
  const [options, switches] = optionsBar(t, id);
  const [codestep, code] = codeStep(t, id);
  const [nudge, nudgeParts] = nudgeCheck(t, id, i18n.lang);
  const [table, tableBody] = nodeTable(t);
  const legend = legendOf(t, id);
  const live = h("div", {
    class: "tdg-sr-only",
    "aria-live": "polite",
    "aria-atomic": "true",
    "data-role": "narration",
  });
  // The step in words under the graph, for every reader (the live region above says it to screen
  // readers once the reader takes over; this one is read by eye, so it is hidden from them).
  const caption = h("p", { class: "tdg-caption", "data-caption": "", "aria-hidden": "true" });
  const player = h(
    "section",
    { class: "tdg-player", "aria-label": t("player_label") },
    field,
    presetGroup,
    // Open, except on a phone with many variables (sync.ts): a tap on "Values" shows them.
    h(
      "details",
      { class: "tdg-vars", open: true },
      h("summary", { class: "tdg-field-label" }), // "Values: 3 variables" (sync.ts)
      variables,
    ),
    view.stage,
    caption,
    // Everything else under the graph, in a box of its own: on a phone the transport sticks to the
    // window's bottom while its place is below the fold, never above this box, so never over the graph
    // or the words under it (transport.css; walkthrough 12's screenshots: over the caption's 2nd line).
    h(
      "div",
      { class: "tdg-below" },
      options, // the toggles change the picture: right under it, then predict-then-check (mount.ts)
      transport,
      nudge, // its changes are drawn on the cards: close enough to see both
      legend,
      codestep,
      table,
    ),
    live,
  );
  return {
    player,
    ...input,
    presets: presetButtons,
    variables,
    ...view,
    transport,
    ...playback,
    ...switches,
    ...code,
    ...nudgeParts,
    tableBody,
    live,
    caption,
  };
}

function expressionField(
  t: Translate,
  id: string,
): [HTMLElement, Pick<Controls, "expression" | "mirror" | "error">] {
  const expression = h("input", {
    type: "text",
    name: "expression",
    id: `${id}-expr`,
    class: "tdg-expr-input",
    autocomplete: "off",
    autocapitalize: "off",
    spellcheck: "false",
    "aria-describedby": `${id}-error ${id}-help`,
  });
  const mirror = h("div", { class: "tdg-expr-mirror", "aria-hidden": "true" });
  const error = h("p", { class: "tdg-error", id: `${id}-error`, role: "status", hidden: true });
  const field = h(
    "div",
    { class: "tdg-expr" },
    h("label", { for: `${id}-expr`, class: "tdg-field-label" }, t("expression")),
    h("div", { class: "tdg-expr-wrap" }, mirror, expression),
    error,
    h("p", { class: "tdg-help", id: `${id}-help` }, t("expression_help")),
  );
  return [field, { expression, mirror, error }];
}

function presetChips(t: Translate, id: string, presets: Preset[]): [HTMLElement | null, HTMLButtonElement[]] {
  const buttons = presets.map((p, i) =>
    h(
      "button",
      {
        type: "button",
        class: "tdg-chip",
        "data-action": "preset",
        "data-preset": i,
        "aria-pressed": "false",
      },
      p.label,
    ),
  );
  if (!presets.length) return [null, buttons];
  const label = h("span", { class: "tdg-field-label", id: `${id}-presets` }, t("presets"));
  return [
    h("div", { class: "tdg-presets", role: "group", "aria-labelledby": `${id}-presets` }, label, ...buttons),
    buttons,
  ];
}

function stageOf(id: string): Pick<Controls, "stage" | "canvas" | "edgeLabels" | "cards"> {
  const canvas = h("canvas", { class: "tdg-canvas", "aria-hidden": "true" });
  const edgeLabels = h("div", { class: "tdg-edge-labels", "aria-hidden": "true" });
  const cards = h("div", { class: "tdg-cards" });
  const stage = h(
    "div",
    { class: "tdg-stage", tabindex: "0", role: "group", "aria-describedby": `${id}-drag` },
    canvas,
    edgeLabels,
    cards,
  );
  return { stage, canvas, edgeLabels, cards };
}

function legendOf(t: Translate, id: string): HTMLElement {
  return h(
    "p",
    { class: "tdg-legend" },
    h("span", { class: "tdg-legend-item", "data-kind": "value" }, t("legend_values")),
    h("span", { class: "tdg-legend-item", "data-kind": "grad" }, t("legend_grads")),
    // Written as a label's product is: its "local derivative" is marked as the labels' local factors are.
    writeProduct(h("span", { class: "tdg-legend-swatch" }), t("edge_label_legend")),
    // Shown by player.css only where they apply: compact cards' v and g, a graph with a typed number.
    h(
      "span",
      { class: "tdg-legend-keys" },
      t("legend_keys", { v: t("value_short"), g: t("grad_short"), value: t("value"), grad: t("grad") }),
    ),
    h(
      "span",
      { class: "tdg-legend-literal" },
      h("span", { class: "tdg-badge" }, t("const")),
      ` ${t("legend_literal")}`,
    ),
    // Backward: what an edge's thickness, colour and dashes say about its contribution (encoding.ts).
    h(
      "span",
      { class: "tdg-legend-encoding" },
      h("span", { class: "tdg-legend-edge", "data-look": "width" }, t("legend_width")),
      h("span", { class: "tdg-legend-edge", "data-look": "positive" }, t("legend_positive")),
      h("span", { class: "tdg-legend-edge", "data-look": "negative" }, t("legend_negative")),
      h("span", { class: "tdg-legend-edge", "data-look": "dead" }, t("legend_dead")),
    ),
    h(
      "span",
      { class: "tdg-drag-hint", id: `${id}-drag` },
      h("span", { class: "tdg-hint-pointer" }, t("drag_hint")),
      h("span", { class: "tdg-hint-touch" }, t("drag_hint_touch")),
    ),
  );
}

function transportBar(
  t: Translate,
  id: string,
): [
  HTMLElement,
  Pick<Controls, "play" | "forward" | "backward" | "time" | "timeText" | "stepBack" | "stepOn">,
] {
  const play = actionButton("play", t("play"), "tdg-button tdg-play", { "aria-pressed": "false" });
  const forward = actionButton("forward", t("forward"), "tdg-seg", { "aria-pressed": "true" });
  const backward = actionButton("backward", t("backward"), "tdg-seg", { "aria-pressed": "false" });
  const time = h("input", {
    type: "range",
    name: "time",
    min: 0,
    max: 1,
    step: "any",
    value: 0,
    id: `${id}-time`,
    class: "tdg-time",
  });
  const timeText = h("span", { class: "tdg-time-text", "aria-hidden": "true" });
  // A finger cannot land on one step of 51 on a phone's slider; these move by exactly one.
  const stepBack = stepButton("step-back", "\u25c0\ufe0e", t("step_back"));
  const stepOn = stepButton("step-on", "\u25b6\ufe0e", t("step_on"));
  const bar = h(
    "div",
    { class: "tdg-transport" },
    play,
    h("div", { class: "tdg-segmented", role: "group", "aria-label": t("direction") }, forward, backward),
    h(
      "div",
      { class: "tdg-timeline" },
      h("label", { for: `${id}-time`, class: "tdg-field-label" }, t("timeline")),
      stepBack,
      time,
      stepOn,
      timeText,
    ),
  );
  return [bar, { play, forward, backward, time, timeText, stepBack, stepOn }];
}

/** A button whose arrow is seen and whose words are heard (and shown on hover). */
function stepButton(action: string, arrow: string, words: string): HTMLButtonElement {
  return h(
    "button",
    { type: "button", class: "tdg-button tdg-step", "data-action": action, title: words },
    h("span", { "aria-hidden": "true" }, arrow),
    h("span", { class: "tdg-sr-only" }, words),
  );
}

function optionsBar(
  t: Translate,
  id: string,
): [
  HTMLElement,
  Pick<Controls, "localDerivatives" | "finalGradients" | "resetView" | "copyLink" | "status">,
] {
  const localDerivatives = h("input", { type: "checkbox", name: "local-derivatives", id: `${id}-local` });
  const finalGradients = h("input", { type: "checkbox", name: "final-gradients", id: `${id}-final` });
  const resetView = actionButton("reset-view", t("reset_view"));
  const copyLink = actionButton("copy-link", t("copy_link"));
  const status = h("span", { class: "tdg-status", role: "status" });
  const bar = h(
    "div",
    { class: "tdg-options" },
    h("label", { class: "tdg-toggle" }, localDerivatives, " ", t("local_derivatives")),
    h("label", { class: "tdg-toggle" }, finalGradients, " ", t("final_gradients")),
    resetView,
    copyLink,
    status,
  );
  return [bar, { localDerivatives, finalGradients, resetView, copyLink, status }];
}

function codeStep(t: Translate, id: string): [HTMLElement, Pick<Controls, "topo" | "codeLine">] {
  const topo = h("ol", { class: "tdg-topo-list" });
  const codeLine = h("code", { class: "tdg-code-line" });
  const section = h(
    "div",
    { class: "tdg-codestep" },
    h("span", { class: "tdg-field-label", id: `${id}-topo` }, t("topo_order")),
    h("div", { class: "tdg-topo", role: "group", "aria-labelledby": `${id}-topo` }, topo),
    codeLine,
  );
  return [section, { topo, codeLine }];
}

function nudgeCheck(
  t: Translate,
  id: string,
  lang: string,
): [HTMLElement, Pick<Controls, "nudgeLeaf" | "nudgeH" | "nudgeRun" | "nudgeResult">] {
  const nudgeLeaf = h("select", { name: "nudge-leaf", id: `${id}-nudge-leaf` });
  const nudgeH = h("input", {
    type: "text",
    name: "nudge-h",
    id: `${id}-nudge-h`,
    value: fieldText(0.001, lang), // as the values' fields (sliders.ts showValue)
    class: "tdg-number",
  });
  const nudgeRun = actionButton("nudge", t("nudge_run"));
  const nudgeResult = h("p", { class: "tdg-nudge-result", role: "status" });
  const details = h(
    "details",
    { class: "tdg-nudge" },
    h("summary", {}, t("nudge_check")),
    h(
      "div",
      { class: "tdg-nudge-row" },
      h("label", { for: `${id}-nudge-leaf` }, t("nudge_leaf")),
      nudgeLeaf,
      h("label", { for: `${id}-nudge-h` }, t("nudge_h")),
      nudgeH,
      nudgeRun,
    ),
    nudgeResult,
  );
  return [details, { nudgeLeaf, nudgeH, nudgeRun, nudgeResult }];
}

function nodeTable(t: Translate): [HTMLElement, HTMLTableSectionElement] {
  const tableBody = h("tbody");
  const headings = [t("table_node"), t("table_operation"), t("value"), t("grad")].map((c) =>
    h("th", { scope: "col" }, c),
  );
  const details = h(
    "details",
    { class: "tdg-table" },
    h("summary", {}, t("nodes_table")),
    h(
      "table",
      {},
      h("caption", { class: "tdg-sr-only" }, t("nodes_table")),
      h("thead", {}, h("tr", {}, ...headings)),
      tableBody,
    ),
  );
  return [details, tableBody];
}

export function fillNudgeLeaves(select: HTMLSelectElement, leaves: TimelineNode[]): void {
  const previous = select.value;
  select.replaceChildren(...leaves.map((n) => h("option", { value: n.name ?? n.label }, n.name ?? n.label)));
  if (leaves.some((n) => (n.name ?? n.label) === previous)) select.value = previous;
}
