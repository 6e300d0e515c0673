// The moment in the address bar: written a little after the reader stops changing things (while a
// pulse plays too: a preset chosen mid-pulse left the last graph's address until the pulse ended,
// walkthrough 14), about once a second while the pulse the reader started plays (with play=1: a reload
// plays on from there, walkthroughs 18 and 19), again when it ends, and copied on request; with the
// exercise whose words the sandbox shows, so that a reload keeps it (url.ts withTask). Reading a shared
// link is url.ts and the "moment" action.

import type { Controls } from "../controls/controls";
import { setText } from "../shared/dom";
import { named } from "./address";
import type { I18n } from "../shared/i18n";
import { type SandboxState, valuesFor } from "../model/model";
import { predictionsIn, withPredictions } from "./translations";
import { decodeMoment, encodeMoment, type SharedMoment, withTask } from "./url";

const WRITE_DELAY_MS = 300; // a drag writes once, when it pauses
const PLAYING_WRITE_MS = 1000; // while a pulse plays: well under the browsers' limits on history writes

export class Share {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastAddress = ""; // the address last read or written here

  constructor(
    private readonly root: HTMLElement,
    private readonly ui: Controls,
    private readonly i18n: I18n,
  ) {}

  /**
   * The moment the page's address names for this sandbox, if any; `fresh`: only if it is not the one
   * last read or written here (review 52: an exercise's second hashchange, once the player was ready,
   * took a pulse playing on from a reload back to the address's time).
   */
  moment(fresh = false): SharedMoment | null {
    if (fresh && location.hash === this.lastAddress) return null;
    this.lastAddress = location.hash;
    return decodeMoment(location.hash, this.root.id);
  }

  schedule(current: () => SandboxState, delay = WRITE_DELAY_MS): void {
    clearTimeout(this.timer);
    const seen = location.hash;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // The address changed meanwhile (a link followed, Back): it names the moment the reader asked
      // for last, which its hashchange brings; the older one is not written over it.
      if (location.hash !== seen) return;
      this.write(current());
    }, delay);
  }

  /**
   * A frame of the reader's pulse: the moment written now and then, not put off by every frame, and
   * once more when it has ended; only while the address names this sandbox, as the pulse's start
   * wrote it (review 52: the compact player's pulse took the address from the sandbox the learner was
   * using; walkthrough 20: from the exercise they had opened since, or the section a link of the
   * contents had taken them to, and a reload lost either). A link to this sandbox's own moment ends
   * the pulse (sandbox.ts holds the writes while it waits for the engine).
   */
  playing(current: () => SandboxState): void {
    if (!named(this.root)) return;
    if (!current().playing) this.schedule(current);
    else if (this.timer === undefined) this.schedule(current, PLAYING_WRITE_MS);
  }

  write(s: SandboxState): void {
    const hash = encodeMoment(this.root.id, {
      // What the field holds: a reload, a copied link or another language keeps unfinished typing too
      // (walk 35: "(a + b) * c * exp(d" came back as "(a + b) * c"), with its error over the graph it
      // falls back to.
      expression: s.expression,
      values: valuesFor(s),
      direction: s.direction,
      time: s.time,
      localDerivatives: s.localDerivatives,
      finalGradients: s.finalGradients,
      playing: s.playing,
      nudge: s.nudge && "result" in s.nudge && s.nudge.result.ok ? s.nudge : undefined,
    });
    // With the exercise the sandbox shows, and the panel it sits in (walkthrough 15: the first slider
    // move or key wrote them out of the address, and a reload lost the exercise), and the predictions
    // typed for it (walkthrough 16: a reload lost them too).
    const task = this.root.querySelector<HTMLElement>(".tdg-task[data-exercise]")?.dataset ?? null;
    const { typed, checked } = predictionsIn(this.root);
    const lang = this.root.ownerDocument.documentElement.lang;
    const address = withTask(withPredictions(hash, typed, lang, lang, checked), task);
    if (location.hash !== address) {
      history.replaceState(history.state, "", address);
      setText(this.ui.status, ""); // "Link copied" was about the moment before (xwalk 35: it stayed)
    }
    this.lastAddress = location.hash;
  }

  async copy(s: SandboxState): Promise<void> {
    this.write({ ...s, playing: false }); // the moment itself, as the lesson promises: not played over
    setText(this.ui.status, this.i18n.t("link_ready"));
    try {
      await navigator.clipboard.writeText(location.href);
      setText(this.ui.status, this.i18n.t("link_copied"));
    } catch {
      // No clipboard (permissions, insecure origin): the address bar holds the link anyway.
    }
  }
}
