// One sandbox: state (model.ts) in, pictures (stage.ts) and controls (sync.ts) out.
// Every change is an action through reduce(); a frame is drawn only when something changed or while
// the pulse plays, and every frame is frameAt(timeline, time): nothing else decides what is shown.

import type { Timeline } from "../../inference/types";
import type { CodeExcerpt } from "../teaching/codestep";
import type { Controls } from "../controls/controls";
import { markFirstFrame, recordInputToFrame, registerSandbox } from "../shared/debug";
import { belowHeader, prefersReducedMotion, whenSeen } from "../shared/dom";
import { fieldText } from "../../widgets/fields";
import { FrameworksPanel } from "../teaching/frameworks";
import type { I18n } from "../shared/i18n";
import { EngineMissing, engineReady, lazyEngine, loadEngine } from "../engine/load";
import { fullPanels, nextAnimationFrame, nextTask, preparePlayer, type SandboxData } from "./mount";
import { readerMovedSince, reveal } from "./reveal";
import {
  type Action,
  advance,
  COMPACT_LINGER,
  COMPACT_PACE,
  SANDBOX_LINGER,
  type Context,
  initialState,
  nudgeMoved,
  forwardDone,
  reduce,
  type SandboxState,
} from "../model/model";
import { codeStepOf } from "../controls/panels";
import type { Scene } from "../stage/scene";
import { named, WRITE_NOW } from "./address";
import { Share } from "./share";
import type { SharedMoment } from "./url";
import { Stage } from "../stage/stage";
import type { PredictPanel } from "../teaching/predict";
import { startButton } from "../teaching/compact";
import { ControlSync, flaggedNode } from "../controls/sync";
import { frameAt } from "../model/timing";
import { GraphWalk } from "../controls/walk";
import {
  type DispatchOptions,
  type Target,
  wireControls,
  wirePage,
  wireRotation,
  wireSlider,
} from "../controls/wiring";

const MAX_FRAME_STEP_S = 0.1; // a long pause between frames (a hidden tab) does not jump the pulse
const ROOM_UNDER_CONTROL = 12; // px kept between a control scrolled into view and the window's bottom
const AUTOPLAY_VISIBLE = 0.35; // share of the stage in view before the first pulse plays

export class Sandbox implements Target {
  readonly stage: Stage;
  readonly presets: SandboxData["presets"];
  private state: SandboxState;
  private readonly sync: ControlSync;
  private readonly share: Share;
  private readonly walk: GraphWalk; // the cards as keyboard and screen reader walk them
  private readonly predict: PredictPanel | null; // predict, then check (full sandboxes)
  private readonly context: Context;
  private readonly reducedMotion: boolean;
  private readonly still: boolean; // no autoplay: reduced motion, or a compact sandbox
  // The pace of the playback rate, and of that once a step's result has landed (model.ts advance):
  // slower in a compact sandbox.
  private readonly pacing: readonly [number, number];
  private frameRequested = false;
  private dirty = false;
  private lastTick = 0;
  private carry = 0; // reduced motion: time owed to the next whole step
  private frames = 0;
  private waking = true; // until the player shows (start)
  private inputStart: number | null = null; // event time of the input being drawn, for the measure
  private interacted = false; // only then does the sandbox write the URL or narrate
  private checkedAt = 0; // when Check started the pulse whose end brings a wrong answer's words (0: none)
  private readonly excerpt: CodeExcerpt | null; // the method running now, beside the graph (codestep.ts)
  private readonly frameworks: FrameworksPanel | null; // the same in PyTorch / JAX, under the sandbox
  private invitation: HTMLButtonElement | null = null; // a compact sandbox's Backward on its stage, until the reader acts
  private waitingForEngine: (() => void)[] | null = null; // the reader's changes since one needed the engine, in order
  private engineLost = false; // the engine did not load for a link's own expression (start)

  private constructor(
    private readonly root: HTMLElement,
    data: SandboxData,
    scene: Scene,
    readonly ui: Controls,
    readonly i18n: I18n,
  ) {
    this.reducedMotion = prefersReducedMotion();
    this.context = {
      compute: lazyEngine.recompute,
      variablesOf: lazyEngine.variablesOf,
      nudgeCheck: lazyEngine.nudgeCheck,
      edit: lazyEngine.edit,
      setValue: lazyEngine.setValue,
      autoplay: !this.reducedMotion,
      lang: i18n.lang,
    };
    this.presets = data.presets ?? [];
    this.state = initialState(data.timeline, data.values);
    // A compact sandbox waits for the reader's Backward with the forward pass done (it sits on the
    // first screen, where a pulse playing by itself would keep a phone busy while the page loads).
    this.still = this.reducedMotion || data.compact === true;
    this.pacing = data.compact === true ? [COMPACT_PACE, COMPACT_LINGER] : [1, SANDBOX_LINGER];
    if (this.still) this.state = { ...this.state, time: this.state.schedule.duration };
    this.stage = new Stage(ui, scene, i18n, data.timeline, () => this.invalidate());
    this.sync = new ControlSync(ui, i18n, this.presets, (slider) => wireSlider(this, slider));
    this.share = new Share(root, ui, i18n);
    root.addEventListener(WRITE_NOW, () => {
      if (this.interacted || named(root)) this.share.write(this.state); // a sandbox the reader has used
    });
    this.walk = new GraphWalk(ui.cards, i18n);
    [this.predict, this.excerpt] = fullPanels(root, data, ui, i18n, () => this.checkPredictions());
    // A learner who clicks or tabs into a prediction field predicts from the graph: the whole stage
    // comes into view with the field, where the window holds both (on a touch screen the keyboard
    // that opens moves the page itself).
    // Focused by a press, the page moves once it ends, not under it (a release elsewhere left WebKit's
    // field with no caret: what was typed went nowhere).
    if (this.predict && !matchMedia?.("(pointer: coarse)").matches)
      this.predict.el.addEventListener("focusin", ({ target }) => {
        if (!(target instanceof HTMLInputElement)) return;
        const show = (): void => this.showStage(target, null);
        if (target.matches(":active")) addEventListener("pointerup", show, { once: true });
        else show();
      });
    // Enter after an expression that computes: the learner has typed it and watches its graph, which
    // comes into view with its words (walkthrough 26: on a phone a 40-node graph's words were under the
    // fold while its pulse played). An error stays in view with the field, as does an expression whose
    // graph waits for the engine (its error, if any, is yet to come). The sliders' room held while
    // typing (sync.ts) goes first: the expression is whole (walkthrough 29: a band of 200 px held from a
    // prefix with more variables stayed over the graph, the field still focused).
    ui.expression.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" || this.state.error || this.waitingForEngine) return;
      this.sync.releaseRoom();
      this.showStage(ui.caption);
    });
    // What the learner predicts goes into the address too: a reload keeps it (walkthrough 16).
    this.predict?.el.addEventListener("input", () => this.share.schedule(() => this.state));
    this.frameworks = FrameworksPanel.find(root, i18n);
    // Pressed on the first screen, where the line under the graph may be just below the fold: the
    // page moves so the graph and its words show together while the pulse plays.
    if (data.compact === true)
      this.invitation = startButton(ui, i18n, () =>
        this.dispatch({ type: "restart", direction: "backward" }, { show: ui.caption }),
      );
  }

  /** Mount the player into a [data-sandbox] element (mount.ts); null when it has no data or no WebGL. */
  static async mount(root: HTMLElement): Promise<Sandbox | null> {
    const asked = performance.now(); // the address named the sandbox, or the reader came near
    const parts = await preparePlayer(root);
    if (!parts) return null;
    const sandbox = new Sandbox(root, parts.data, parts.scene, parts.ui, parts.i18n);
    await sandbox.start(asked);
    return sandbox;
  }

  private async start(asked: number): Promise<void> {
    // A shared moment is applied before anything is built: the graph is built once, the right one.
    const moment = this.share.moment();
    if (moment) {
      this.state = await this.reduceWithEngine({ type: "moment", moment });
      this.interacted = true;
      this.invitation?.remove(); // a compact sandbox's pulse may play on (review 52: under its invitation)
      this.invitation = null;
    }
    await nextTask();
    this.stage.readPalette();
    await nextTask();
    await this.stage.buildInSteps(this.state.timeline, nextTask); // the first graph, in short tasks
    this.walk.build(this.state.timeline);
    await nextTask();
    // What the reader has typed while it woke stays theirs (walkthrough 13: on a phone the expression
    // was written back over the first letters typed, 'relu(' → '(a + b) * celu('); heard once wired.
    const field = this.ui.expression;
    const typed = document.activeElement === field && field.value !== field.defaultValue ? field.value : null;
    this.sync.state(this.state);
    if (typed !== null) field.value = typed;
    if (this.engineLost) this.sync.engineFailed(true);
    this.predict?.setCramped(this.stage.cramped);
    this.predict?.sync(this.state);
    if (moment) this.receive(moment);
    this.frameworks?.show(this.state, !moment); // without a link's moment, the graph the build wrote it for
    wireControls(this);
    // Typed into while it woke (the field was there, its keys not yet heard): the graph follows the text.
    if (document.activeElement === field && field.value !== this.state.expression)
      this.dispatch({ type: "edit", text: field.value });
    wireRotation(this);
    wirePage(this);
    // The first frame in a task of its own, drawn while the player is still transparent (player.css:
    // it is styled, laid out and painted then); the player shows in another; a shared moment's scroll
    // in another (the page's scroll handlers run with it); the wall is drawn last.
    await nextTask();
    this.render();
    // The reveal in a task of its own right after a frame: a wheel or touch scroll the compositor has
    // already made reaches the page at that frame's start (continuous input is dispatched with it), so
    // reveal knows the reader is scrolling. At any other moment it could run first, and the text below
    // a sandbox in view would jump as it grew (a compact sandbox waking as the reader began to scroll).
    // Not in the frame's callbacks: the player's first style and layout would join the frame's task.
    await nextAnimationFrame();
    await nextTask();
    reveal(this.root, this.ui.player, !moment);
    this.waking = false;
    markFirstFrame(this.root.id);
    this.registerDebugHandle();
    if (this.state.playing) this.invalidate(); // a link's pulse plays on
    await nextTask();
    // To the moment an address named, unless the reader has moved on while it woke (review 48).
    if (moment) {
      // Where the graph and Play show too, or the panel a link unfolds (landing.ts, in the engine's
      // bundle, which an exercise or a link's own expression needs anyway; walkthrough 21: a link to a
      // 40-node graph's step, its eight sliders above, showed half of the graph and none of its words),
      // else the sandbox's top under the header.
      const engine = moment.open || engineReady() ? await loadEngine().catch(() => null) : null;
      if (!readerMovedSince(asked)) {
        if (engine) engine.arrive(this.root);
        else this.root.scrollIntoView({ block: "start" });
      }
    } else this.autoplayWhenVisible();
    await nextTask();
    if (this.stage.scene.wallPending) this.render();
  }

  current(): SandboxState {
    return this.state;
  }

  /**
   * A transition that may need the engine (a link's own expression), loading it first if so. When it
   * cannot load, the sandbox opens on its own graph and the error line says why (start).
   */
  private async reduceWithEngine(action: Action): Promise<SandboxState> {
    try {
      return reduce(this.state, action, this.context);
    } catch (error) {
      if (!(error instanceof EngineMissing)) throw error;
      try {
        await loadEngine();
      } catch (failed) {
        console.error("tinydag player:", failed);
        this.engineLost = true;
        return this.state;
      }
      return reduce(this.state, action, this.context);
    }
  }

  /**
   * Run after the engine has loaded (and after the changes that waited before), in order. A failed
   * load drops the changes that waited: the next one tries again, and the error line says so.
   */
  private afterEngine(run: () => void): void {
    if (this.waitingForEngine) {
      this.waitingForEngine.push(run);
      return;
    }
    this.waitingForEngine = [run];
    loadEngine().then(
      () => {
        const waiting = this.waitingForEngine ?? [];
        this.waitingForEngine = null;
        this.sync.engineFailed(false);
        for (const next of waiting) next();
      },
      (error: unknown) => {
        this.waitingForEngine = null;
        this.sync.engineFailed(true);
        console.error("tinydag player:", error);
      },
    );
  }

  /** For what needs the engine before it starts: true when `run` waits for it (afterEngine). */
  private deferredUntilEngine(run: () => void): boolean {
    if (!this.waitingForEngine && engineReady()) return false;
    this.afterEngine(run);
    return true;
  }

  /** The one way the state changes: reduce, then bring the stage and the controls along. */
  dispatch(action: Action, options: DispatchOptions = {}): void {
    if (this.waitingForEngine) {
      this.afterEngine(() => this.dispatch(action, options)); // after the change that waits, not before
      return;
    }
    const before = this.state;
    let next: SandboxState;
    try {
      next = reduce(before, action, this.context);
    } catch (error) {
      if (!(error instanceof EngineMissing)) throw error;
      this.afterEngine(() => this.dispatch(action, options)); // the first change the engine computes
      return;
    }
    // New numbers after Check: the answers wait for the next Check, so the cards do not show its
    // gradients before it (walkthrough 24: c.grad = 7 on screen while the fields asked for it), unless
    // the reader has asked for the final gradients.
    if (action.type === "set-value" && this.predict?.awaits(next)) next = forwardDone(next);
    this.state = next;
    if (next.structure !== before.structure) this.buildGraph(next.timeline);
    else if (next.timeline !== before.timeline) this.stage.refresh(next.timeline);
    this.sync.state(next); // at once, not a frame later: a click's result is visible to the next event
    if (action.type === "preset" || action.type === "moment") this.predict?.restart();
    this.predict?.sync(next);
    this.frameworks?.show(next);
    if (options.byReader ?? true) {
      this.invitation?.remove(); // the reader has found the controls
      this.invitation = null;
      this.interacted = true;
      if (options.url ?? true) this.share.schedule(() => this.state);
    }
    if (options.inputAt !== undefined) this.inputStart = options.inputAt || performance.now();
    // Typing and dragging draw within the input event itself, without waiting a frame; while the
    // pulse plays, the loop draws the next frame anyway, unless the graph itself is new.
    const input = options.inputAt !== undefined;
    const drawNow = options.now || (input && (!next.playing || next.structure !== before.structure));
    if (drawNow) this.render();
    if (!drawNow || next.playing) this.invalidate();
    // A pulse the reader starts plays where they can see it (a tall graph on a phone leaves only a strip
    // of it above the buttons).
    if (options.show && next.playing) this.showStage(options.show);
  }

  /** New cards for a new graph; a card that had the focus keeps it (or hands it to the root). */
  private buildGraph(timeline: Timeline): void {
    const focused = this.walk.focused();
    this.stage.build(timeline);
    this.walk.build(timeline, focused);
    this.predict?.setCramped(this.stage.cramped); // a taller graph may leave no room for the fields
  }

  /**
   * Backward, or Check where every prediction field holds an answer not judged yet: the pass that brings
   * the gradients marks them as it goes (walk 39: pressed instead of Check, "Before you press Backward"
   * in the exercise's words, it showed every gradient and marked nothing).
   */
  backward(): void {
    if (this.predict?.unchecked()) this.checkPredictions();
    else this.dispatch({ type: "restart", direction: "backward" }, { show: this.ui.backward });
  }

  /** Check: judge the predictions, then play the backward pass that brings the gradients. */
  private checkPredictions(): void {
    // A wrong answer's explanation comes with the engine (usually there: a field's focus sent for it).
    if (this.deferredUntilEngine(() => this.checkPredictions())) return;
    if (!this.predict) return;
    // Not judged: the line that says why, and each field's message under it, come into view with the
    // graph where they fit (walkthroughs 23, 24: on a desktop they were under the fold), else alone:
    // the graph has not changed (walkthrough 25: on a phone the last message was under the fold).
    const panel = this.predict.el;
    if (!this.predict.check(this.state)) return void this.showStage(panel, panel);
    this.checkedAt = performance.now();
    this.dispatch({ type: "restart", direction: "backward" }, { now: true });
    // The answer is the backward pass: it plays where the learner can see the whole graph, with the
    // fields and their verdicts under it, and Pause with the timeline where the window holds them too
    // (walkthrough 25: the outcome's line pushed them under a desktop's fold), else the outcome's line; the
    // verdicts show as their gradients come, the words at the pass's end (render), or at once with the
    // final gradients, shown then already.
    if (this.checkedAt) this.showStage([this.ui.transport, panel, this.predict.summary]);
  }

  /** Nudge check: the change it causes is drawn on the cards, so they come into view too. */
  nudge(leaf: string, step: string): void {
    if (this.deferredUntilEngine(() => this.nudge(leaf, step))) return;
    this.dispatch({ type: "nudge", leaf, step }, { now: true });
    if (nudgeMoved(this.state)) this.showStage([this.ui.nudgeResult, this.ui.nudgeRun]);
  }

  /**
   * Scroll the stage into view, clear of the site's header (its scroll-margin), and with it, when the
   * window is tall enough for both, the control the learner just used (or the first of `controls`, in
   * their order, that fits: the words it brought, else the control): the smallest move that shows
   * them. Otherwise `otherwise` alone, as near as it is: the stage, or what the reader needs most
   * (null: nothing moves).
   */
  private showStage(
    controls: HTMLElement | readonly HTMLElement[] = this.ui.stage,
    otherwise: HTMLElement | null = this.ui.stage,
  ): void {
    const behavior = this.reducedMotion ? "auto" : "smooth";
    const stage = this.ui.stage;
    const top = belowHeader(stage);
    for (const control of [controls].flat()) {
      const box = control.getBoundingClientRect();
      if (box.height === 0) continue; // not shown (an empty answer)
      const bottom = box.bottom + ROOM_UNDER_CONTROL - innerHeight;
      // Scrolling down by d shows both when bottom <= d <= top.
      if (bottom > top) continue;
      if (top < 0 || bottom > 0) scrollBy({ top: top < 0 ? top : bottom, behavior });
      return;
    }
    otherwise?.scrollIntoView({ block: "nearest", behavior });
  }

  /** The live region says the step on screen again (its numbers changed while the reader dragged). */
  announce(): void {
    this.sync.reannounce();
    this.invalidate();
  }

  copyLink(): void {
    void this.share.copy(this.state);
  }

  repaint(): void {
    this.stage.readPalette();
    this.invalidate();
  }

  resize(width: number): void {
    this.stage.layout(true, width);
    this.predict?.setCramped(this.stage.cramped);
    this.invalidate();
  }

  hashChanged(): void {
    const moment = this.share.moment(true);
    if (!moment) return;
    this.dispatch({ type: "moment", moment }, { url: false });
    if (this.waitingForEngine) this.afterEngine(() => this.receive(moment));
    else this.receive(moment);
  }

  /**
   * What a link asks of the panels besides the moment: the one its exercise uses unfolded and the
   * other folded, so that the one shows under the graph (an exercise that uses neither folds the
   * prediction fields: "none"); the predictions typed before.
   */
  private receive(moment: SharedMoment): void {
    this.predict?.receive(
      moment.open ?? (moment.task === undefined ? undefined : "none"),
      moment.predictions,
    );
    // Checked before a language switch: judged again, in this language; the backward pass brings the
    // gradients only if it plays on. Drawn again: a verdict shows once its gradient is there (reach).
    if (moment.checked)
      void loadEngine().then(
        () => {
          this.predict?.check(this.state);
          this.invalidate();
        },
        () => undefined,
      );
    const nudge = this.ui.nudgeRun.closest("details");
    if (moment.open && nudge) nudge.open = moment.open === "nudge";
    // The nudge that was shown, asked again: its leaf, its h in this page's way of writing numbers
    if (moment.nudge && nudge) {
      const { leaf, h } = moment.nudge;
      this.ui.nudgeLeaf.value = leaf;
      this.ui.nudgeH.value = fieldText(h, this.i18n.lang);
      nudge.open = true;
      this.dispatch({ type: "nudge", leaf, step: String(h) }, { url: false });
    }
  }

  /** The forward pulse plays once when the reader first sees a full sandbox (not with reduced motion). */
  private autoplayWhenVisible(): void {
    if (this.still) return;
    whenSeen(this.ui.stage, AUTOPLAY_VISIBLE, () => {
      if (!this.interacted && this.state.time === 0)
        this.dispatch({ type: "restart", direction: "forward" }, { byReader: false });
    });
  }

  invalidate(): void {
    this.dirty = true;
    this.nextFrame();
  }

  private nextFrame(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(this.tick);
  }

  private readonly tick = (now: number): void => {
    this.frameRequested = false;
    if (!this.dirty && !this.state.playing) return; // already drawn within its input event
    if (this.state.playing) {
      const dt = this.lastTick ? Math.min(MAX_FRAME_STEP_S, (now - this.lastTick) / 1000) : 0;
      this.lastTick = now;
      const r = advance(this.state, dt, this.reducedMotion, this.carry, ...this.pacing);
      // With reduced motion the time moves a whole step at a time: the frames between show nothing new.
      if (r.state.time !== this.state.time || !r.state.playing) this.dirty = true;
      this.state = r.state;
      this.carry = r.carry;
      // Not while a moment waits for the engine (review 53: a link's address, the exercise it opened,
      // was written over by the pulse it was about to end).
      if (this.interacted && !this.waitingForEngine) this.share.playing(() => this.state);
      if (!this.state.playing) this.sync.state(this.state);
    } else {
      this.lastTick = 0;
      this.carry = 0;
    }
    if (this.dirty) this.render();
    if (this.state.playing) this.nextFrame();
  };

  private render(): void {
    const s = this.state;
    const frame = frameAt(s.timeline, s.schedule, s.time, s.finalGradients);
    const dimmed = s.direction === "forward" && frame.completed === 0;
    const input = {
      timeline: s.timeline,
      frame,
      flagged: flaggedNode(s),
      localDerivatives: s.localDerivatives,
      view: s.view,
      dimmed,
      moved: nudgeMoved(s),
    };
    // Clean before drawing: what the draw itself asks for (the stage's redraw) stays asked.
    this.dirty = false;
    if (!this.stage.draw(input)) {
      this.dirty = true;
      return;
    }
    this.walk.update(s.timeline, frame, s.finalGradients);
    // The stage's height may have changed with its layout (local derivatives grow cards): the fields
    // fold when it leaves them no room (review 56).
    this.predict?.setCramped(this.stage.cramped);
    // The answer's pulse has brought its last gradient: the first wrong answer's words (or, all right,
    // the outcome) come into view, unless the reader has moved since Check (walkthrough 22: on a phone
    // they were under the fold).
    // With the whole graph, and the whole panel, where the window holds them (a desktop); else alone.
    const words = this.predict?.reach(s, frame.completed);
    if (words && this.checkedAt && !readerMovedSince(this.checkedAt))
      this.showStage([this.predict!.el, words], words);
    if (words) this.checkedAt = 0;
    this.frames += 1;
    if (this.stage.scene.wallPending && !this.waking) this.invalidate(); // the first frame comes without the wall, sooner
    // Only a full sandbox marks the lesson's listing (a compact one, on the first screen, would take
    // the one listing's mark from the sandbox beside "Running now").
    this.sync.frame(s, frame, this.interacted, this.excerpt !== null && (this.interacted || s.playing));
    this.excerpt?.show(codeStepOf(s.timeline, s.schedule, frame, this.i18n).key);
    this.markPerformance();
  }

  private markPerformance(): void {
    if (this.inputStart !== null) recordInputToFrame(this.inputStart);
    this.inputStart = null;
  }

  private registerDebugHandle(): void {
    registerSandbox(this.root, {
      draw: () => this.render(),
      state: () => this.state,
      frames: () => this.frames,
      paths: () => this.stage.labels.screenPaths(),
    });
  }
}
