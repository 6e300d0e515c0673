// The folded "The same in PyTorch / JAX" panel the build wrote right after a full sandbox (embed.py): its
// scripts follow the sandbox (inference/frameworks.ts writes them from the graph on screen), and while
// the input cannot be computed it says why instead. The theme gives each script its copy button.

import { scripts } from "../../inference/frameworks";
import { setText } from "../shared/dom";
import { errorMessage, type I18n } from "../shared/i18n";
import type { SandboxState } from "../model/model";

export class FrameworksPanel {
  private constructor(
    private readonly el: HTMLElement,
    private readonly i18n: I18n,
  ) {}

  /** The panel right after the sandbox's root (not inside it: see embed.py). */
  static find(root: HTMLElement, i18n: I18n): FrameworksPanel | null {
    const el = root.nextElementSibling;
    return el instanceof HTMLElement && el.matches("[data-frameworks]")
      ? new FrameworksPanel(el, i18n)
      : null;
  }

  show({ timeline, error, expression }: SandboxState): void {
    const written = error ? null : scripts(timeline);
    const part = (selector: string): HTMLElement => this.el.querySelector(selector) as HTMLElement;
    for (const [f, text] of Object.entries(written ?? {})) setText(part(`[data-framework=${f}]`), text);
    const why = part(".tinydag-frameworks__why");
    why.hidden = Boolean(written);
    part(".tinydag-frameworks__scripts").hidden = !written;
    setText(
      why,
      error
        ? this.i18n.t("frameworks_refused", { message: errorMessage(this.i18n, error, expression) })
        : written
          ? ""
          : this.i18n.t("frameworks_constant"),
    );
  }
}
