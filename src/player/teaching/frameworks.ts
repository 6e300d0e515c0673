// The folded "The same in PyTorch / JAX" panel the build wrote right after a full sandbox (embed.py): its
// scripts follow the sandbox (written by the engine's bundle: scripts.ts), and while the input cannot
// be computed it says why instead. Written while the panel is open, or as it opens: a folded panel
// costs a slider's drag nothing. The theme gives each script its copy button.

import { EngineMissing, lazyEngine, loadEngine } from "../engine/load";
import type { I18n } from "../shared/i18n";
import type { SandboxState } from "../model/model";

export class FrameworksPanel {
  private latest: SandboxState | null = null; // the state to write, once the panel is open
  private written: SandboxState | null = null; // the state the panel shows (the build's, at first)

  private constructor(
    private readonly el: HTMLDetailsElement,
    private readonly i18n: I18n,
  ) {
    el.addEventListener("toggle", () => this.write());
  }

  /** The panel right after the sandbox's root (not inside it: see embed.py). */
  static find(root: HTMLElement, i18n: I18n): FrameworksPanel | null {
    const el = root.nextElementSibling;
    return el instanceof HTMLDetailsElement && el.matches("[data-frameworks]")
      ? new FrameworksPanel(el, i18n)
      : null;
  }

  /** The sandbox's state now (`initial`: the graph the build wrote the panel for). */
  show(state: SandboxState, initial = false): void {
    this.latest = state;
    if (initial) this.written = state;
    this.write();
  }

  private write(): void {
    const state = this.latest;
    if (!this.el.open || !state || shows(this.written, state)) return;
    try {
      lazyEngine.writeScripts(this.el, state, this.i18n);
    } catch (missing) {
      if (!(missing instanceof EngineMissing)) throw missing;
      loadEngine().then(
        () => this.write(),
        () => undefined, // the scripts on the page stay; a change that needs the engine says why
      );
      return;
    }
    this.written = state;
  }
}

/** Whether the panel written for `a` is the one for `b` (a pulse, a toggle: the same scripts). */
const shows = (a: SandboxState | null, b: SandboxState): boolean =>
  a !== null && a.timeline === b.timeline && a.error === b.error && a.expression === b.expression;
