// A compact sandbox (a ```tinydag block with `compact: true`, [data-sandbox-compact] on the page) sits
// beside the prose that explains its graph: the graph, the pulse and its controls, the order and the
// running line, nothing to edit. The parts removed here stay in the page's full sandbox; removing them
// (rather than hiding them) leaves one expression field, one set of sliders, ... on the page.

import type { Controls } from "../controls/controls";
import { h } from "../shared/dom";
import type { I18n } from "../shared/i18n";

const FULL_ONLY = [".tdg-expr", ".tdg-presets", ".tdg-vars", ".tdg-options", ".tdg-nudge", ".tdg-table"];

export function makeCompact(ui: Controls, i18n: I18n): void {
  ui.player.classList.add("tdg-player--compact");
  ui.player.setAttribute("aria-label", i18n.t("compact_label")); // not a second "sandbox" to a screen reader
  for (const selector of FULL_ONLY) ui.player.querySelector(selector)?.remove();
}

/**
 * The invitation on the picture itself. The opening paragraph asks the reader to press Backward, and
 * on a laptop's first screen the transport's Backward button is just under the fold: this button, in
 * the stage's top right corner (where the lesson's graph leaves the wall empty), does what Backward
 * does, and goes as soon as the reader plays anything (sandbox.ts). It is for the pointer only: the
 * transport's button is the one keyboards and screen readers use, so this one is neither tabbed to
 * nor announced.
 */
export function startButton(ui: Controls, i18n: I18n, start: () => void): HTMLButtonElement {
  const button = h(
    "button",
    { type: "button", class: "tdg-stage-start", tabindex: "-1", "aria-hidden": "true" },
    i18n.t("backward"),
  );
  button.addEventListener("click", start);
  ui.stage.append(button);
  return button;
}
