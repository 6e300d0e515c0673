// A compact sandbox (a ```tinydag block with `compact: true`, [data-sandbox-compact] on the page) sits
// beside the prose that explains its graph: the graph, the pulse and its controls, the order and the
// running line, nothing to edit. The parts removed here stay in the page's full sandbox; removing them
// (rather than hiding them) leaves one expression field, one set of sliders, ... on the page.

import type { Controls } from "../controls/controls";
import type { I18n } from "../shared/i18n";

const FULL_ONLY = [".tdg-expr", ".tdg-presets", ".tdg-vars", ".tdg-options", ".tdg-nudge", ".tdg-table"];

export function makeCompact(ui: Controls, i18n: I18n): void {
  ui.player.classList.add("tdg-player--compact");
  ui.player.setAttribute("aria-label", i18n.t("compact_label")); // not a second "sandbox" to a screen reader
  for (const selector of FULL_ONLY) ui.player.querySelector(selector)?.remove();
}
