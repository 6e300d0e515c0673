// The controls and text companions follow the state: buttons, sliders, presets, the error under the
// expression, the node table, the topological order, the nudge answer and the narration. Nothing
// here changes the state; sandbox.ts calls `state()` after every transition and `frame()` per frame.

import { CodeListing } from "../teaching/codestep";
import { type Controls, fillNudgeLeaves } from "./controls";
import { fitSlider, type Slider, showValue, syncSliderList } from "./sliders";
import { setAttr, setStyle, setText } from "../shared/dom";
import type { ErrorView } from "./errorview";
import { prettyLabel } from "../teaching/expansion";
import { parseNumber } from "../model/format";
import { engineReady, lazyEngine } from "../engine/load";
import type { I18n } from "../shared/i18n";
import {
  DEFAULT_VALUE,
  dimmedExpression,
  type NudgeState,
  type Preset,
  type SandboxState,
} from "../model/model";
import { captionOf, describeEvent, type ShownStep, shownStep } from "./narration";
import { codeStepOf, NodeTable, TopoStrip } from "./panels";
import type { Frame } from "../model/timing";

// More variables than this start folded: the graph stays near the expression instead of a screen of
// sliders above it. On a phone (player.css's 37.5em) a slider takes a row; wider, two share one
// (walkthrough 12: twenty put the graph 330 px lower, and the pulse typing starts played out of view;
// walkthrough 14: thirteen, seven rows, still put it under the window's edge).
const FOLD_ABOVE = 4;
const FOLD_ABOVE_WIDE = 10;
const TAP_MS = 500; // a tap's focus follows the finger's release by less than this

const NARROW_PX = 600; // a phone's width and less (transport.css's 37.5em): fewer sliders, a 2-line caption

export class ControlSync {
  sliders: Slider[] = [];
  // The error line under the expression: built once the engine has loaded, with the next change it
  // shows (an error is the engine's answer; ErrorView and its words come with it, engine.ts).
  private errors: ErrorView | null = null;
  private readonly held: () => Element | null; // what the reader's pointer or finger holds down
  private readonly table: NodeTable;
  private readonly topo: TopoStrip;
  private readonly listing: CodeListing | null;
  private shown: SandboxState | null = null; // the state the controls were last synced to
  private lastCompleted = -1;
  private captioned: { s: SandboxState; shown: ShownStep | null; resting: boolean } | null = null;
  private captionAbout: unknown[] = []; // what the caption last said (writeCaption)
  private many = false; // more variables than FOLD_ABOVE (FOLD_ABOVE_WIDE)
  // The last nudge shown, whether its leaf's gradient had arrived, and its line under the graph (Nudge
  // check's measure, compared with the gradient once the backward wave has brought it).
  private nudgeShown: {
    nudge: NudgeState | null;
    reached: boolean;
    written: boolean;
    caption: string | null;
  } = {
    nudge: null,
    reached: false,
    written: true,
    caption: null,
  };

  constructor(
    private readonly ui: Controls,
    private readonly i18n: I18n,
    private readonly presets: readonly Preset[],
    private readonly onNewSlider: (slider: Slider) => void,
  ) {
    // What the reader's pointer or finger holds down, if anything (the error line keeps it in place).
    const doc = ui.player.ownerDocument;
    let pressed: Element | null = null;
    let lifted = 0; // when a finger last left the screen: the tap's focus and click come after it
    const press = (e: Event): void => {
      pressed = e.type === "pointerdown" ? (e.target as Element) : null;
      if (e.type === "pointerup" && (e as PointerEvent).pointerType === "touch") lifted = e.timeStamp;
    };
    for (const type of ["pointerdown", "pointerup", "pointercancel"])
      doc.addEventListener(type, press, { capture: true, passive: true });
    this.held = () => pressed;
    // The sliders' room held while typing (state) goes back when the learner leaves the field, but after
    // the press that took the focus, if any: shrinking at its mousedown moved the button it pressed from
    // under the pointer, and the click missed (walkthrough 9). It goes with the click the press makes
    // (hit-tested before any listener runs: it goes where it was aimed), or a moment after a press that
    // makes none (a drag). A tap takes the focus after the finger has left, and its click is aimed after
    // that (walkthrough 17: the room went as the field lost the focus, and a tap on Backward landed
    // 32 px below it, on nothing, 9 taps of 9).
    const releaseWithClick = (): void => {
      const clicked = (): void => {
        clearTimeout(timer);
        doc.removeEventListener("click", clicked, true);
        this.releaseRoom();
      };
      const timer = setTimeout(clicked, 400);
      doc.addEventListener("click", clicked, true);
    };
    // A tap on the caption: all of it, or two lines again (on a phone; writeCaption).
    ui.caption.onclick = () => {
      ui.caption.toggleAttribute("data-open");
      this.writeCaption();
    };
    ui.expression.addEventListener("blur", (e) => {
      if (pressed) doc.addEventListener("pointerup", releaseWithClick, { capture: true, once: true });
      else if (e.timeStamp - lifted < TAP_MS) releaseWithClick();
      else this.releaseRoom();
    });
    this.table = new NodeTable(ui.tableBody, i18n);
    this.topo = new TopoStrip(ui.topo, ui.codeLine);
    this.listing = CodeListing.find(ui.player.ownerDocument);
  }

  /** After every transition: what the controls show must match the state at once. */
  state(s: SandboxState): void {
    const before = this.shown;
    this.shown = s;
    if (before?.structure !== s.structure) {
      this.table.build(s.timeline);
      this.topo.build(s.timeline);
      setAttr(
        this.ui.stage,
        "aria-label",
        this.i18n.t("stage_label", { expression: prettyLabel(s.timeline.expression) }),
      );
      fillNudgeLeaves(
        this.ui.nudgeLeaf,
        s.timeline.nodes.filter((n) => n.op === "var"),
      ); // leaves are structure
    }
    if (before?.variables !== s.variables) {
      // While the learner types, a prefix with fewer variables ("(a + b)" on the way to "(a + b) * c")
      // takes its sliders away but not their room: the graph below stays put until the field is left.
      if (document.activeElement === this.ui.expression) {
        const held = parseFloat(this.ui.variables.style.minHeight) || 0;
        const height = this.ui.variables.getBoundingClientRect().height;
        if (height > held) setStyle(this.ui.variables, "min-height", `${height}px`);
      }
      const variables = s.variables.map((name) => ({ name, value: s.values[name] ?? DEFAULT_VALUE }));
      const previous = new Set(this.sliders);
      this.sliders = syncSliderList(this.ui.variables, this.i18n, this.sliders, variables);
      for (const slider of this.sliders) if (!previous.has(slider)) this.onNewSlider(slider);
      // Its title says how many it holds: folded, how many are behind it.
      const title = this.ui.variables.previousElementSibling;
      if (title) setText(title, this.i18n.t("variables", { count: variables.length }));
      this.foldEmpty();
      // Folded as it becomes many; then as the reader left it.
      const many = variables.length > (innerWidth > NARROW_PX ? FOLD_ABOVE_WIDE : FOLD_ABOVE);
      if (many !== this.many)
        (this.ui.variables.parentElement as HTMLDetailsElement).open = !(this.many = many);
    }
    if (this.ui.expression.value !== s.expression) this.ui.expression.value = s.expression;
    // New numbers alone change the message only when it names a node of the graph on screen.
    const numbersMatter = s.error !== null && before?.timeline !== s.timeline;
    if (before?.error !== s.error || before?.expression !== s.expression || numbersMatter) {
      const typing = before?.expression !== s.expression && document.activeElement === this.ui.expression;
      const line = this.errorLine();
      if (line) line.show(s.error, s.timeline, flaggedNode(s), typing);
      else this.ui.error.hidden = true; // a change made without the engine (a preset): its failure said before goes
      // The graph on screen is not what the field says (a typo, or a value out of a domain): fade it.
      this.ui.player.classList.toggle("is-stale", dimmedExpression(s) !== null);
    }
    this.syncSliders(s);
    this.syncPresets(s);
    this.syncButtons(s);
  }

  /**
   * The words under the graph for the frame last drawn. Under an error the graph is what the error
   * line says it is (walkthrough 12: a dimmed graph played with no word of why, and a graph kept at its
   * last values was narrated at them while the slider said otherwise): its message and, for a text that
   * gives no graph, which graph is dimmed instead of a step of it, said first (walk 40: a phone's two
   * lines cut the dimmed graph's name; the message they cut now stands whole under the field).
   */
  private writeCaption(): void {
    if (!this.captioned) return;
    const { s, shown, resting } = this.captioned;
    const dimmed = dimmedExpression(s);
    const said = s.error === null ? null : (this.errors?.said() ?? null);
    const nudged = dimmed === null && resting ? this.nudgeShown.caption : null;
    // Kept to two lines on a phone (transport.css), a sum is told by its tail where the whole sentence
    // would pass them (at about 7 px a character: walk 36 saw short sums cut that fitted); opened by a
    // tap, whole, until the words are about something else.
    const caption = this.ui.caption;
    const about = [shown, dimmed, said, nudged];
    if (about.some((x, i) => x !== this.captionAbout[i])) caption.removeAttribute("data-open");
    this.captionAbout = about;
    const of = (brief: boolean): string => captionOf(s.schedule, shown, this.i18n, dimmed, brief, s.playing);
    let step = of(false);
    if (
      !caption.hasAttribute("data-open") &&
      innerWidth <= NARROW_PX &&
      step.length * 7 > 2 * innerWidth - 64
    )
      step = of(true);
    const words = dimmed !== null ? [step, said].filter(Boolean).join(" ") : (said ?? nudged ?? step);
    setText(caption, words);
  }

  /** Whether the engine failed to load (sandbox.ts): the error line says so until it has loaded. */
  engineFailed(failed: boolean): void {
    const line = this.ui.error;
    if (failed) {
      // Written here: without the engine there is no ErrorView (the next change clears it, as a view would).
      setText(line, this.i18n.t("engine_failed"));
      line.dataset.code = "player";
      line.hidden = false;
    } else if (this.shown)
      this.errorLine()?.show(this.shown.error, this.shown.timeline, flaggedNode(this.shown));
  }

  /** The error line's view, once the engine is there to build it (none is needed before). */
  private errorLine(): ErrorView | null {
    if (!this.errors && engineReady())
      this.errors = lazyEngine.errorView(
        this.ui.expression,
        this.ui.mirror,
        this.ui.error,
        this.i18n,
        () => this.writeCaption(),
        this.held,
      );
    return this.errors;
  }

  /** Per drawn frame: the timeline's text, the table, the code in step, narration, the nudge answer. */
  frame(s: SandboxState, frame: Frame, narrate: boolean, highlight: boolean): void {
    const total = s.schedule.duration;
    // The counter, the caption and the scrubber's text name the step in flight (narration.ts); the
    // live region waits until it lands (below), when the card says the same.
    const shown = shownStep(s.timeline, s.schedule, frame, this.i18n);
    setText(this.ui.timeText, `${shown?.step ?? 0} / ${total}`);
    setAttr(
      this.ui.time,
      "aria-valuetext",
      shown
        ? this.i18n.t("time_step", { step: shown.step, total, event: shown.event })
        : this.i18n.t("time_start", { direction: this.i18n.t(s.direction) }),
    );
    // Under an error the graph is dimmed (render): the caption says which graph that is. After a
    // nudge, the caption says what Nudge check measured, under the graph that shows it (the panel's
    // longer sentence is further down the page), while the pulse rests at a pass's start or end; a
    // pulse on its way, playing or scrubbed, says its steps (walkthrough 10: they fell silent).
    this.showNudge(s.nudge, frame);
    this.captioned = { s, shown, resting: !s.playing && (shown === null || frame.completed >= total) };
    this.writeCaption();
    this.syncButtons(s);
    this.table.update(frame);
    const codeStep = codeStepOf(s.timeline, s.schedule, frame, this.i18n);
    this.topo.update(
      s.timeline,
      codeStep,
      s.direction === "backward",
      this.listing,
      frame.completed >= total,
    );
    if (this.listing && highlight) this.listing.highlight(this, codeStep.key);
    if (frame.completed !== this.lastCompleted) {
      this.lastCompleted = frame.completed;
      // The live region says each step once, in the page's language, after the reader took over.
      const landed = s.schedule.events[frame.completed - 1];
      if (landed && narrate) setText(this.ui.live, describeEvent(landed, s.timeline, this.i18n));
    }
  }

  private syncButtons(s: SandboxState): void {
    const ui = this.ui;
    setText(ui.play, this.i18n.t(s.playing ? "pause" : "play"));
    setAttr(ui.play, "aria-pressed", String(s.playing));
    setAttr(ui.forward, "aria-pressed", String(s.direction === "forward"));
    setAttr(ui.backward, "aria-pressed", String(s.direction === "backward"));
    ui.player.dataset.direction = s.direction;
    const max = String(s.schedule.duration);
    if (ui.time.max !== max) ui.time.max = max;
    // A lone leaf's forward pass has no step: nothing to play or scrub (the caption says why).
    const empty = s.schedule.duration === 0;
    if (ui.play.disabled !== empty) ui.play.disabled = empty;
    if (ui.time.disabled !== empty) ui.time.disabled = empty;
    if (Number(ui.time.value) !== s.time) ui.time.value = String(s.time);
    ui.localDerivatives.checked = s.localDerivatives;
    ui.finalGradients.checked = s.finalGradients;
  }

  /** The sliders' room held while the expression is typed goes (the field left, or Enter: sandbox.ts). */
  releaseRoom(): void {
    setStyle(this.ui.variables, "min-height", "");
    this.foldEmpty();
  }

  /** No values (numbers alone, or a typo), no fold: once the field is left, for its room is held till then. */
  private foldEmpty(): void {
    const fold = this.ui.variables.parentElement as HTMLElement;
    fold.hidden = !this.ui.variables.childElementCount && document.activeElement !== this.ui.expression;
  }

  /** Values into the sliders, never into the field the reader is using right now. */
  private syncSliders(s: SandboxState): void {
    const active = this.ui.player.ownerDocument.activeElement;
    for (const slider of this.sliders) {
      const value = s.values[slider.name] ?? DEFAULT_VALUE;
      if (slider.number !== active && parseNumber(slider.number.value) !== value) showValue(slider, value);
      if (slider.range !== active && Number(slider.range.value) !== value) {
        fitSlider(slider, value);
        slider.range.value = String(value);
      }
    }
  }

  private syncPresets(s: SandboxState): void {
    // While the field says something else (a typo, an emptied field), no preset is the one chosen,
    // though its graph stays dimmed (walkthrough 14: the chip stayed pressed over an empty field).
    const fieldHoldsGraph = dimmedExpression(s) === null;
    const chosen = this.presets.map(
      (preset) =>
        fieldHoldsGraph &&
        preset.expression === s.timeline.expression &&
        Object.entries(preset.values).every(([k, v]) => s.values[k] === v),
    );
    chosen.forEach((current, i) => {
      const button = this.ui.presets[i];
      if (!button) return;
      // On a phone the chips are one row that scrolls (expression.css): the chosen one is brought in.
      const row = button.parentElement!;
      if (current && button.getAttribute("aria-pressed") !== "true" && row.scrollWidth > row.clientWidth) {
        const [b, r] = [button.getBoundingClientRect(), row.getBoundingClientRect()];
        // With room for the chip's focus ring (4 px), and on the right for the row's fade (expression.css,
        // 2.5rem: 50 px); rounded outwards (xb17: WebKit drops a fraction). A chip in view moves nothing
        // (walkthrough 26: each load moved the row 4 px, its label cut). The first chip brings the row's
        // start, its label with it (walkthrough 27: "es a factor").
        const by = Math.min(0, b.left - 4 - r.left) || Math.max(0, b.right + 54 - r.right);
        row.scrollLeft = i ? row.scrollLeft + (by < 0 ? Math.floor(by) : Math.ceil(by)) : 0;
      }
      // None is chosen any more (an exercise's own setup, an expression typed): the row from its
      // start, its label with it (walkthroughs 27, 28: "Presets" scrolled away after (c)'s link, then (a)'s).
      if (!chosen.includes(true) && button.getAttribute("aria-pressed") === "true") row.scrollLeft = 0;
      setAttr(button, "aria-pressed", String(current));
    });
  }

  /** The next frame says its landed step to screen readers again, even if it is the same step. */
  reannounce(): void {
    this.lastCompleted = -1;
  }

  /** The nudge answer shows the gradient only once the backward wave has brought it to the leaf. */
  private showNudge(nudge: NudgeState | null, frame: Frame): void {
    // Redrawn only when the answer or whether its gradient has arrived changes, not every frame.
    const reached =
      nudge && "result" in nudge && nudge.result.ok
        ? (frame.nodes.get(nudge.result.node)?.grad ?? null) !== null
        : false;
    // A nudge is measured by the engine, whose bundle writes its words too (model/nudge.ts): a nudge
    // shown before it had loaded (none is today: sandbox.ts waits for it) is written once it has.
    const ready = engineReady();
    const last = this.nudgeShown;
    if (nudge === last.nudge && reached === last.reached && (ready || !nudge) === last.written) return;
    // (before the engine, there is nothing to write and nothing written to undo)
    const caption = ready
      ? lazyEngine.writeNudge(this.ui.nudgeResult, nudge, reached, this.i18n, this.ui.expression.value)
      : null;
    this.nudgeShown = { nudge, reached, written: ready || !nudge, caption };
  }
}

/** The node a numeric error is about, when it belongs to the graph on screen. */
export function flaggedNode(s: SandboxState): string | null {
  if (!s.error?.node) return null;
  return s.expression === s.timeline.expression ? s.error.node : null;
}
