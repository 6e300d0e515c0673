// Before a sandbox exists: its data read from the page, its controls built and put in place (hidden
// behind the static figure), its WebGL context and programs, each in a short task of its own so that
// waking blocks the page for little. Without WebGL the static figure stays, with a note.

import type { Timeline } from "../../inference/types";
import { CodeExcerpt, CodeListing } from "../teaching/codestep";
import { makeCompact } from "../teaching/compact";
import { buildControls, type Controls } from "../controls/controls";
import { h } from "../shared/dom";
import { type I18n, makeI18n, type Strings } from "../shared/i18n";
import type { Preset } from "../model/model";
import { PredictPanel } from "../teaching/predict";
import { Scene } from "../stage/scene";

export interface SandboxData {
  lang: string;
  expression: string;
  values: Record<string, number>;
  timeline: Timeline;
  presets: Preset[];
  strings: Strings;
  compact?: boolean; // a compact sandbox: the graph and the pulse, nothing to edit (compact.ts)
}

/** Let the browser handle input and draw before the next piece of work. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Resolve in the next frame's animation callbacks, after the input that frame dispatches. */
export function nextAnimationFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

export async function preparePlayer(
  root: HTMLElement,
): Promise<{ data: SandboxData; i18n: I18n; ui: Controls; scene: Scene } | null> {
  const script = root.querySelector("script.tinydag-data, script.tinydag-compact-data");
  if (!script?.textContent) return null;
  const data = JSON.parse(script.textContent) as SandboxData;
  const i18n = makeI18n(data.lang || root.lang || "en", data.strings ?? {});
  const ui = buildControls(i18n, data.presets ?? []);
  ui.expression.defaultValue = data.timeline.expression; // a reader may tap into it and type while it wakes
  if (data.compact) makeCompact(ui, i18n);
  ui.player.setAttribute("aria-hidden", "true"); // until it shows (start)
  const figure = root.querySelector(".tinydag-figure");
  if (figure) figure.after(ui.player);
  else root.append(ui.player);
  await nextTask();
  const scene = Scene.create(ui.canvas);
  if (!scene) {
    // Keep the static figure; its caption carries the localized note (shown by figure.css).
    ui.player.remove();
    root.dataset.webgl = "unavailable";
    root.dataset.player = "no-webgl";
    if (!root.querySelector(".tinydag-figure__note"))
      root.append(h("p", { class: "tinydag-no-webgl", role: "note" }, i18n.t("no_webgl")));
    return null;
  }
  // Then each program in a task of its own, the first one too: creating the context waits on the GPU
  // process (90–330 ms on SwiftShader), and with the first program's compiling it made the player's
  // longest task at load (bench/README.md).
  do await nextTask();
  while (scene.prepare());
  return { data, i18n, ui, scene };
}

/**
 * A full sandbox's panels: predict-then-check under the graph, and the method of the lesson's listing
 * that is running (codestep.ts) under the timeline. A compact sandbox has neither.
 */
export function fullPanels(
  root: HTMLElement,
  data: SandboxData,
  ui: Controls,
  i18n: I18n,
  check: () => void,
): [PredictPanel | null, CodeExcerpt | null] {
  if (data.compact === true || root.id.startsWith("tinydag-compact")) return [null, null];
  const predict = new PredictPanel(i18n, check);
  const listing = CodeListing.find(root.ownerDocument);
  const excerpt = listing ? new CodeExcerpt(listing, i18n.t("code_excerpt")) : null;
  // Predicting happens with the graph in view: under its caption and the toggles (which stay right
  // under the graph however long the verdicts grow), above the timeline; the running code comes
  // after the timeline that drives it and Nudge check (whose changes are drawn on the cards: it stays
  // a screen's reach from them), and right under it the topological order with the node in hand and
  // what the running line does with it ("v = a × a, child = a"), before the legend.
  ui.transport.before(predict.el);
  if (excerpt) {
    ui.nudgeResult.closest("details")?.after(excerpt.element);
    const order = ui.codeLine.closest(".tdg-codestep");
    if (order) excerpt.element.after(order);
  }
  return [predict, excerpt];
}
