// The frameworks panel's words (frameworks.ts), written by the on-demand bundle (engine.ts): the graph
// on screen as PyTorch and JAX scripts (inference/frameworks.ts), or, while the input cannot be
// computed, why not.

import { scripts } from "../../inference/frameworks";
import type { SandboxState } from "../model/model";
import { setText } from "../shared/dom";
import { errorMessage, type I18n } from "../shared/i18n";

/** Write the panel `el` for the sandbox's state (its scripts, or why there are none). */
export function writeScripts(el: HTMLElement, state: SandboxState, i18n: I18n): void {
  const { timeline, error, expression } = state;
  const written = error ? null : scripts(timeline);
  const part = (selector: string): HTMLElement => el.querySelector(selector) as HTMLElement;
  for (const [f, text] of Object.entries(written ?? {})) setText(part(`[data-framework=${f}]`), text);
  const why = part(".tinydag-frameworks__why");
  why.hidden = Boolean(written);
  part(".tinydag-frameworks__scripts").hidden = !written;
  setText(
    why,
    error
      ? i18n.t("frameworks_refused", { message: errorMessage(i18n, error, expression) })
      : written
        ? ""
        : i18n.t("frameworks_constant"),
  );
}
