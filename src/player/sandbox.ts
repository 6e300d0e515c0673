// One sandbox: state (model.ts) in, pictures (scene, cards, labels, panels) out.
// Events change the state and mark it dirty; a frame is drawn only when something changed or while
// the pulse plays, and every frame is frameAt(timeline, time): nothing else decides what is shown.

import type { Timeline } from "../inference/types";
import { CARD_COMPACT, CARD_FULL, Cards } from "./cards";
import { CodeListing } from "./codestep";
import { readPalette, type RGB } from "./colors";
import { buildControls, buildSliders, type Controls, fillNudgeLeaves, type Preset, type Slider, widenSlider } from "./controls";
import { edgeCurves } from "./curves";
import { debugHandle } from "./debug";
import { h, setAttr, setText } from "./dom";
import { type EngineResult, recompute } from "./engine";
import { ErrorView } from "./errorview";
import { prettyLabel } from "./expansion";
import { CARD_WORLD_WIDTH, type CardSize, DEFAULT_LIMITS, type Fit, fitStage } from "./fit";
import { formatNumber, parseNumber } from "./format";
import { errorMessage, type I18n, makeI18n, type Strings } from "./i18n";
import { EdgeLabels } from "./labels";
import {
  advance,
  clampView,
  DEFAULT_VIEW,
  initialState,
  restart,
  rotate,
  type SandboxState,
  seek,
  step,
  structureKey,
  togglePlay,
  valuesFor,
  withTimeline,
} from "./model";
import { describeEvent } from "./narration";
import type { Rect } from "./placement";
import { nudgeCheck } from "./nudge";
import { codeStepOf, NodeTable, TopoStrip } from "./panels";
import { Scene } from "./scene";
import { type Frame, frameAt } from "./timing";
import { decodeMoment, encodeMoment, type SharedMoment } from "./url";

export interface SandboxData {
  lang: string;
  expression: string;
  values: Record<string, number>;
  timeline: Timeline;
  presets: (Preset & { timeline?: Timeline })[];
  strings: Strings;
}

const COMPACT_BELOW = 560; // stage width (px) under which cards switch to their compact size
const LABEL_MIN_SCALE = 0.88;
const CROWDED_BELOW = 0.7; // card scale under which older edge labels show only their contribution
const PALETTE_ATTRIBUTES = ["data-md-color-scheme", "data-md-color-primary", "data-md-color-accent"];
let firstFrameMarked = false;

export class Sandbox {
  private state: SandboxState;
  private readonly cards: Cards;
  private readonly labels: EdgeLabels;
  private readonly errors: ErrorView;
  private readonly table: NodeTable;
  private readonly topo: TopoStrip;
  private readonly listing: CodeListing | null;
  private readonly reducedMotion: boolean;
  private sliders: Slider[] = [];
  private fit: Fit | null = null;
  private cardSize: CardSize = CARD_FULL;
  private stageWidth = 0;
  private labelScale = 1;
  private pointed: ReadonlySet<string> = new Set(); // edges under the pointer (or of the card under it)
  private structure = ""; // structureKey of the graph on screen
  private grownKey = ""; // which cards have grown (local derivatives), as the edges were routed
  private variableNames = "";
  // drawing
  private frameRequested = false;
  private dirty = false;
  private lastTick = 0;
  private carry = 0; // reduced motion: time owed to the next whole step
  private frames = 0;
  private inputStart: number | null = null; // event time of the input being drawn, for the measure
  // reader
  private interacted = false; // only then does the sandbox write the URL or narrate
  private lastCompleted = -1;
  private urlTimer: number | undefined;

  private constructor(
    private readonly root: HTMLElement,
    private readonly data: SandboxData,
    private readonly scene: Scene,
    private readonly ui: Controls,
    private readonly i18n: I18n,
  ) {
    this.reducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
    this.state = initialState(data.timeline, data.values);
    if (this.reducedMotion) this.state = { ...this.state, time: this.state.schedule.duration };
    this.cards = new Cards(ui.cards, i18n);
    this.labels = new EdgeLabels(ui.edgeLabels, i18n);
    this.errors = new ErrorView(ui.expression, ui.mirror, ui.error, i18n);
    this.table = new NodeTable(ui.tableBody);
    this.topo = new TopoStrip(ui.topo, ui.codeLine);
    this.listing = CodeListing.find(root.ownerDocument);
  }

  /** Mount the player into a [data-sandbox] element; null when it has no data or no WebGL. */
  static mount(root: HTMLElement): Sandbox | null {
    const script = root.querySelector("script.tinydag-data");
    if (!script?.textContent) return null;
    const data = JSON.parse(script.textContent) as SandboxData;
    const i18n = makeI18n(data.lang || root.lang || "en", data.strings ?? {});
    const ui = buildControls(i18n, data.presets ?? []);
    const figure = root.querySelector(".tinydag-figure");
    if (figure) figure.after(ui.player);
    else root.append(ui.player);
    const scene = Scene.create(ui.canvas);
    if (!scene) {
      // Keep the static figure; its caption carries the localized note (shown by figure.css).
      ui.player.remove();
      root.dataset.webgl = "unavailable";
      root.dataset.player = "no-webgl";
      if (!root.querySelector(".tinydag-figure__note")) root.append(h("p", { class: "tinydag-no-webgl", role: "note" }, i18n.t("no_webgl")));
      return null;
    }
    const sandbox = new Sandbox(root, data, scene, ui, i18n);
    sandbox.start();
    return sandbox;
  }

  private start(): void {
    const moment = decodeMoment(location.hash, this.root.id);
    this.ui.expression.value = this.state.expression;
    this.readPalette();
    this.showGraph(this.state.timeline, true);
    if (moment) this.applyMoment(moment);
    this.wire();
    this.render();
    this.root.dataset.player = "ready";
    this.registerDebugHandle();
    if (moment) this.root.scrollIntoView({ block: "start" });
    else this.autoplayWhenVisible();
  }

  // ---- state changes ---------------------------------------------------------------------------

  private update(next: SandboxState, byReader = true): void {
    this.state = next;
    this.syncButtons(); // at once, not a frame later: a click's result is visible to the next event
    if (byReader) {
      this.interacted = true;
      this.scheduleUrl();
    }
    this.invalidate();
  }

  /** A valid graph to show: rebuild what depends on its structure, refresh the rest. */
  private showGraph(timeline: Timeline, first = false): void {
    if (!first) this.state = withTimeline(this.state, timeline);
    const key = structureKey(timeline);
    if (key !== this.structure) {
      this.structure = key;
      this.cards.build(timeline);
      this.layoutStage(true);
      this.table.build(timeline);
      this.topo.build(timeline);
    } else {
      this.cards.refresh(timeline);
    }
    const names = timeline.variables.map((v) => v.name).join(",");
    if (names !== this.variableNames) {
      this.variableNames = names;
      const variables = timeline.variables.map((v) => ({ name: v.name, value: this.state.values[v.name] ?? v.value }));
      this.sliders = buildSliders(this.ui.variables, this.i18n, variables);
      this.wireSliders();
      fillNudgeLeaves(this.ui.nudgeLeaf, timeline.nodes.filter((n) => n.op === "var"));
    }
    this.syncSliders();
    this.syncPresets();
    setAttr(this.ui.stage, "aria-label", this.i18n.t("stage_label", { expression: prettyLabel(timeline.expression) }));
  }

  /** The engine's answer for the expression in the input: a new graph, or an error to show. */
  private apply(result: EngineResult): void {
    this.state = { ...this.state, expression: this.ui.expression.value };
    if (result.ok) this.showGraph(result.timeline);
    this.state = { ...this.state, error: result.ok ? null : result.error };
    this.errors.show(this.state.error, this.state.timeline, this.flaggedNode());
  }

  /** The node a numeric error is about, when it belongs to the graph on screen. */
  private flaggedNode(): string | null {
    const error = this.state.error;
    if (!error?.node) return null;
    return this.ui.expression.value === this.state.timeline.expression ? error.node : null;
  }

  /** Fit the graph to the stage's width: card size, zoom, stage height, edge shapes. */
  private layoutStage(force = false, measured?: number): void {
    // Reading clientWidth forces a layout of the whole page: do it once, then trust the observer.
    const width = measured ?? (this.stageWidth || this.ui.stage.clientWidth || this.root.clientWidth || 600);
    if (!force && width === this.stageWidth) return;
    this.stageWidth = width;
    const compact = width < COMPACT_BELOW;
    this.cardSize = compact ? CARD_COMPACT : CARD_FULL;
    const maxHeight = Math.max(DEFAULT_LIMITS.maxHeight, Math.round(0.85 * (window.innerHeight || 0)));
    const fit = fitStage(this.state.timeline, width, this.cardSize, { ...DEFAULT_LIMITS, maxHeight });
    this.fit = fit;
    const player = this.ui.player;
    player.classList.toggle("is-compact", compact);
    player.style.setProperty("--tdg-card-w", `${this.cardSize.width}px`);
    player.style.setProperty("--tdg-card-h", `${this.cardSize.height}px`);
    // Labels shrink with the cards, but never below what stays comfortably readable.
    this.labelScale = Math.min(1, Math.max(LABEL_MIN_SCALE, fit.scale));
    this.ui.stage.style.height = `${fit.height}px`;
    this.scene.setSize(width, fit.height, fit.ppu);
    this.cards.resize();
    this.routeEdges(new Map());
  }

  /** Edge shapes for the fitted graph; `grown`: CSS px that cards reach further down than usual. */
  private routeEdges(grown: Map<string, number>): void {
    const fit = this.fit;
    if (!fit) return;
    this.grownKey = [...grown].join(";");
    const perUnit = this.cardSize.width / CARD_WORLD_WIDTH;
    const grownUnits = new Map(Array.from(grown, ([id, px]) => [id, px / perUnit]));
    const curves = edgeCurves(this.state.timeline, fit.positions, fit.cardHeight, grownUnits);
    this.scene.setGraph(curves, fit.positions, fit.cardHeight);
    this.labels.build(curves);
    this.pointed = new Set();
  }

  private applyMoment(m: SharedMoment): void {
    const expression = m.expression ?? this.state.expression;
    this.state = { ...this.state, values: { ...this.state.values, ...m.values } };
    this.ui.expression.value = expression;
    const known = valuesFor(this.state);
    const same = expression === this.state.timeline.expression && this.state.timeline.variables.every((v) => v.value === known[v.name]);
    if (!same) this.apply(recompute(expression, this.state.values));
    let next = restart(this.state, m.direction ?? this.state.direction, false);
    next = { ...next, localDerivatives: m.localDerivatives ?? next.localDerivatives, finalGradients: m.finalGradients ?? next.finalGradients };
    this.state = seek(next, m.time ?? 0);
    this.interacted = true;
    this.invalidate();
  }

  private setValue(name: string, value: number, timeStamp: number): void {
    this.inputStart = timeStamp || performance.now();
    this.state = { ...this.state, values: { ...this.state.values, [name]: value } };
    const inputBroken = this.state.error !== null && !this.state.error.node && this.ui.expression.value !== this.state.timeline.expression;
    if (inputBroken) {
      // The input holds an unreadable expression: the sliders keep driving the graph on screen.
      const result = recompute(this.state.timeline.expression, this.state.values);
      if (result.ok) this.showGraph(result.timeline);
    } else {
      this.apply(recompute(this.ui.expression.value, this.state.values));
    }
    this.update(this.state);
    this.drawNow();
  }

  private loadPreset(preset: Preset & { timeline?: Timeline }): void {
    this.ui.expression.value = preset.expression;
    this.state = { ...this.state, values: { ...this.state.values, ...preset.values } };
    // Presets carry the timelines the build computed: no engine call needed.
    this.apply(preset.timeline ? { ok: true, timeline: preset.timeline } : recompute(preset.expression, this.state.values));
    this.update(restart(this.state, this.state.direction, !this.reducedMotion));
  }

  // ---- events ----------------------------------------------------------------------------------

  private wire(): void {
    const ui = this.ui;
    ui.expression.addEventListener("input", (e) => {
      this.inputStart = e.timeStamp || performance.now();
      this.apply(recompute(ui.expression.value, this.state.values));
      this.update(this.state);
      this.drawNow();
    });
    ui.presets.forEach((button, i) =>
      button.addEventListener("click", () => {
        const preset = this.data.presets[i];
        if (preset) this.loadPreset(preset);
      }),
    );
    ui.play.addEventListener("click", () => this.update(togglePlay(this.state)));
    ui.forward.addEventListener("click", () => this.update(restart(this.state, "forward", true)));
    ui.backward.addEventListener("click", () => this.update(restart(this.state, "backward", true)));
    ui.time.addEventListener("input", () => this.update(seek(this.state, Number(ui.time.value))));
    ui.time.addEventListener("keydown", (e) => this.timeKey(e));
    ui.localDerivatives.addEventListener("change", () => this.update({ ...this.state, localDerivatives: ui.localDerivatives.checked }));
    ui.finalGradients.addEventListener("change", () => this.update({ ...this.state, finalGradients: ui.finalGradients.checked }));
    ui.resetView.addEventListener("click", () => this.update({ ...this.state, view: { ...DEFAULT_VIEW } }));
    ui.copyLink.addEventListener("click", () => void this.copyLink());
    ui.nudgeRun.addEventListener("click", () => this.nudge());
    this.wireRotation();
    window.addEventListener("hashchange", () => {
      const m = decodeMoment(location.hash, this.root.id);
      if (m) this.applyMoment(m);
    });
    const repaint = (): void => {
      this.readPalette();
      this.invalidate();
    };
    new MutationObserver(repaint).observe(document.body, { attributes: true, attributeFilter: PALETTE_ATTRIBUTES });
    window.matchMedia?.("(prefers-color-scheme: dark)").addEventListener?.("change", repaint);
    // Label sizes are measured in the page's fonts: measure again once web fonts have arrived.
    document.fonts?.addEventListener?.("loadingdone", () => {
      this.labels.remeasure();
      this.cards.resize();
      this.invalidate();
    });
    new ResizeObserver((entries) => {
      const width = Math.round(entries[0]?.contentRect.width ?? 0);
      if (!width || width === this.stageWidth) return;
      this.layoutStage(true, width);
      this.invalidate();
    }).observe(this.ui.stage);
  }

  private wireSliders(): void {
    for (const slider of this.sliders) {
      slider.range.addEventListener("input", (e) => {
        const value = Number(slider.range.value);
        slider.number.value = String(value);
        this.setValue(slider.name, value, e.timeStamp);
      });
      slider.number.addEventListener("input", (e) => {
        const value = parseNumber(slider.number.value);
        if (!Number.isFinite(value)) return;
        widenSlider(slider, value);
        slider.range.value = String(value);
        this.setValue(slider.name, value, e.timeStamp);
      });
    }
  }

  /** On the timeline: arrows step one event, Space / Enter play or pause, Home / End jump. */
  private timeKey(e: KeyboardEvent): void {
    const keys: Record<string, () => SandboxState> = {
      ArrowRight: () => step(this.state, 1),
      ArrowUp: () => step(this.state, 1),
      PageUp: () => step(this.state, 1),
      ArrowLeft: () => step(this.state, -1),
      ArrowDown: () => step(this.state, -1),
      PageDown: () => step(this.state, -1),
      Home: () => seek(this.state, 0),
      End: () => seek(this.state, this.state.schedule.duration),
      " ": () => togglePlay(this.state),
      Enter: () => togglePlay(this.state),
    };
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    this.update(action());
  }

  /** Drag (mouse, pen or touch) or arrow keys on the focused stage rotate the view, within limits. */
  private wireRotation(): void {
    const stage = this.ui.stage;
    let drag: { id: number; x: number; y: number } | null = null;
    stage.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || (e.target instanceof Element && e.target.closest(".tdg-card"))) return;
      drag = { id: e.pointerId, x: e.clientX, y: e.clientY };
      stage.setPointerCapture?.(e.pointerId);
      stage.classList.add("is-dragging");
    });
    stage.addEventListener("pointermove", (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      const view = rotate(this.state.view, e.clientX - drag.x, e.clientY - drag.y, this.stageWidth);
      drag = { id: e.pointerId, x: e.clientX, y: e.clientY };
      this.interacted = true;
      this.update({ ...this.state, view }, false);
    });
    const end = (e: PointerEvent): void => {
      if (!drag || e.pointerId !== drag.id) return;
      drag = null;
      stage.classList.remove("is-dragging");
    };
    stage.addEventListener("pointerup", end);
    stage.addEventListener("pointercancel", end);
    stage.addEventListener("pointermove", (e) => {
      if (!drag) this.point(e);
    });
    stage.addEventListener("pointerleave", () => this.setPointed(new Set()));
    stage.addEventListener("keydown", (e) => {
      const delta: Record<string, [number, number]> = { ArrowLeft: [-0.08, 0], ArrowRight: [0.08, 0], ArrowUp: [0, -0.06], ArrowDown: [0, 0.06] };
      const d = delta[e.key];
      if (!d || e.target !== stage) return;
      e.preventDefault();
      this.update({ ...this.state, view: clampView({ yaw: this.state.view.yaw + d[0], pitch: this.state.view.pitch + d[1] }) }, false);
    });
  }

  /** Pointing at an edge, or at a card, brings its chain-rule labels forward in full. */
  private point(e: PointerEvent): void {
    if (e.pointerType === "touch") return;
    const card = e.target instanceof Element ? e.target.closest<HTMLElement>("[data-node]") : null;
    if (card) {
      const id = card.dataset.node;
      this.setPointed(new Set(this.state.timeline.edges.filter((edge) => edge.from === id || edge.to === id).map((edge) => edge.id)));
      return;
    }
    const box = this.ui.stage.getBoundingClientRect();
    const edge = this.labels.edgeAt(e.clientX - box.left, e.clientY - box.top);
    this.setPointed(new Set(edge ? [edge] : []));
  }

  private setPointed(edges: ReadonlySet<string>): void {
    const same = edges.size === this.pointed.size && [...edges].every((id) => this.pointed.has(id));
    if (same) return;
    this.pointed = edges;
    this.invalidate();
  }

  /** The forward pulse plays once when the reader first sees the sandbox (not with reduced motion). */
  private autoplayWhenVisible(): void {
    if (this.reducedMotion || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        if (!this.interacted && this.state.time === 0) this.update(restart(this.state, "forward", true), false);
      },
      { threshold: 0.35 },
    );
    observer.observe(this.ui.stage);
  }

  private async copyLink(): Promise<void> {
    this.writeUrl();
    setText(this.ui.status, this.i18n.t("link_ready"));
    try {
      await navigator.clipboard.writeText(location.href);
      setText(this.ui.status, this.i18n.t("link_copied"));
    } catch {
      // No clipboard (permissions, insecure origin): the address bar holds the link anyway.
    }
  }

  private nudge(): void {
    const name = this.ui.nudgeLeaf.value;
    const typed = parseNumber(this.ui.nudgeH.value);
    const hStep = Number.isFinite(typed) && typed !== 0 ? typed : 0.001;
    const result = nudgeCheck(this.state.timeline, valuesFor(this.state), name, hStep);
    const out = this.ui.nudgeResult;
    if (!result) return;
    if (!result.ok) {
      setText(out, this.i18n.t("nudge_failed", { message: errorMessage(this.i18n, result.error) }));
      return;
    }
    const precise = (x: number): string => Number(x.toPrecision(7)).toString().replace(/^-/, "\u2212");
    setText(
      out,
      this.i18n.t("nudge_result", {
        name,
        h: formatNumber(hStep),
        before: precise(result.before),
        after: precise(result.after),
        ratio: formatNumber(result.ratio),
        grad: formatNumber(result.grad),
      }),
    );
    out.dataset.ratio = String(result.ratio);
    out.dataset.grad = String(result.grad);
  }

  // ---- URL -------------------------------------------------------------------------------------

  private scheduleUrl(): void {
    window.clearTimeout(this.urlTimer);
    this.urlTimer = window.setTimeout(() => {
      if (!this.state.playing) this.writeUrl();
    }, 300);
  }

  private writeUrl(): void {
    const s = this.state;
    const hash = encodeMoment(this.root.id, {
      expression: s.timeline.expression,
      values: valuesFor(s),
      direction: s.direction,
      time: s.time,
      localDerivatives: s.localDerivatives,
      finalGradients: s.finalGradients,
    });
    if (location.hash !== hash) history.replaceState(history.state, "", hash);
  }

  // ---- drawing ---------------------------------------------------------------------------------

  private readPalette(): void {
    const palette = readPalette(this.ui.player);
    this.scene.setPalette(palette);
    const css = (c: RGB): string => `rgb(${c.map((x) => Math.round(x * 255)).join(" ")})`;
    this.ui.player.style.setProperty("--tdg-value-color", css(palette.primary));
    this.ui.player.style.setProperty("--tdg-grad-color", css(palette.accent));
  }

  private invalidate(): void {
    this.dirty = true;
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(this.tick);
  }

  /** Draw within the input event itself: a dragged slider shows its graph without waiting a frame. */
  private drawNow(): void {
    if (this.state.playing) this.invalidate();
    else this.render();
  }

  private readonly tick = (now: number): void => {
    this.frameRequested = false;
    if (!this.dirty && !this.state.playing) return; // already drawn by drawNow()
    if (this.state.playing) {
      const dt = this.lastTick ? Math.min(0.1, (now - this.lastTick) / 1000) : 0;
      this.lastTick = now;
      const r = advance(this.state, dt, this.reducedMotion, this.carry);
      this.state = r.state;
      this.carry = r.carry;
      if (!this.state.playing && this.interacted) this.scheduleUrl();
    } else {
      this.lastTick = 0;
      this.carry = 0;
    }
    this.render();
    if (this.state.playing) this.invalidate();
  };

  private render(): void {
    const s = this.state;
    const fit = this.fit;
    if (!fit) return;
    this.frames += 1;
    this.dirty = false;
    const frame = frameAt(s.timeline, s.schedule, s.time, s.finalGradients);
    const flagged = this.flaggedNode();
    this.cards.update(frame, s.timeline, flagged, s.localDerivatives);
    // Local derivatives make derived operations' cards taller: route the edges around them again.
    const grown = this.cards.grown(this.cardSize);
    if ([...grown].join(";") !== this.grownKey) this.routeEdges(grown);
    this.scene.setView(s.view);
    this.scene.draw({ frame, flagged, dimmed: s.direction === "forward" && frame.completed === 0 });
    if (this.scene.wallPending) this.invalidate(); // the first frame comes without the wall, sooner
    const project = this.scene.projector();
    const projected = new Map(Array.from(fit.positions, ([id, p]) => [id, project(p)]));
    const lift = new Map(Array.from(fit.positions, ([id, p]) => [id, Math.min(1, Math.max(0, 0.5 + p[2]))]));
    this.cards.place(projected, this.cardSize, fit.scale, lift);
    this.labels.update(frame, s.timeline, s.localDerivatives, this.pointed);
    const crowded = fit.scale < CROWDED_BELOW;
    const cards = (): Rect[] => this.cards.boxes(this.cardSize);
    this.labels.place(project, { width: this.stageWidth, height: fit.height, scale: this.labelScale, cards, crowded });
    this.syncControls(frame);
    this.table.update(frame);
    const codeStep = codeStepOf(s.timeline, s.schedule, frame, this.i18n);
    this.topo.update(s.timeline, codeStep, s.direction === "backward", this.listing);
    if (this.listing && (this.interacted || s.playing)) this.listing.highlight(this, codeStep.key);
    this.narrate(frame);
    this.markPerformance();
  }

  private markPerformance(): void {
    if (this.inputStart !== null) {
      performance.measure("tinydag:input-to-frame", { start: this.inputStart, end: performance.now() });
      this.inputStart = null;
    }
    if (this.frames === 1) {
      performance.mark(`tinydag:first-frame:${this.root.id}`);
      if (!firstFrameMarked) performance.mark("tinydag:first-frame");
      firstFrameMarked = true;
    }
  }

  private syncButtons(): void {
    const s = this.state;
    const ui = this.ui;
    setText(ui.play, this.i18n.t(s.playing ? "pause" : "play"));
    setAttr(ui.play, "aria-pressed", String(s.playing));
    setAttr(ui.forward, "aria-pressed", String(s.direction === "forward"));
    setAttr(ui.backward, "aria-pressed", String(s.direction === "backward"));
    ui.player.dataset.direction = s.direction;
    const max = String(s.schedule.duration);
    if (ui.time.max !== max) ui.time.max = max;
    if (Number(ui.time.value) !== s.time) ui.time.value = String(s.time);
    ui.localDerivatives.checked = s.localDerivatives;
    ui.finalGradients.checked = s.finalGradients;
  }

  private syncControls(frame: Frame): void {
    const s = this.state;
    this.syncButtons();
    const total = s.schedule.duration;
    setText(this.ui.timeText, `${frame.completed} / ${total}`);
    const last = s.schedule.events[frame.completed - 1];
    setAttr(
      this.ui.time,
      "aria-valuetext",
      last
        ? this.i18n.t("time_step", { step: frame.completed, total, event: describeEvent(last, s.timeline, this.i18n) })
        : this.i18n.t("time_start", { direction: this.i18n.t(s.direction) }),
    );
    this.ui.player.classList.toggle("is-playing", s.playing);
  }

  private syncSliders(): void {
    const active = document.activeElement;
    for (const slider of this.sliders) {
      const value = this.state.values[slider.name];
      if (value === undefined) continue;
      if (slider.number !== active && parseNumber(slider.number.value) !== value) slider.number.value = String(value);
      if (slider.range !== active && Number(slider.range.value) !== value) {
        widenSlider(slider, value);
        slider.range.value = String(value);
      }
    }
  }

  private syncPresets(): void {
    this.data.presets.forEach((preset, i) => {
      const current =
        preset.expression === this.state.timeline.expression && Object.entries(preset.values).every(([k, v]) => this.state.values[k] === v);
      const button = this.ui.presets[i];
      if (button) setAttr(button, "aria-pressed", String(current));
    });
  }

  /** The live region says each step once, in the page's language, after the reader took over. */
  private narrate(frame: Frame): void {
    if (frame.completed === this.lastCompleted) return;
    this.lastCompleted = frame.completed;
    const event = this.state.schedule.events[frame.completed - 1];
    if (event && this.interacted) setText(this.ui.live, describeEvent(event, this.state.timeline, this.i18n));
  }

  private registerDebugHandle(): void {
    const handles = debugHandle().sandboxes;
    handles[this.root.id || `sandbox-${Object.keys(handles).length}`] = {
      pixelStats: () => {
        this.render();
        return this.scene.pixelStats();
      },
      moment: () => ({
        direction: this.state.direction,
        time: this.state.time,
        duration: this.state.schedule.duration,
        playing: this.state.playing,
        yaw: this.state.view.yaw,
        pitch: this.state.view.pitch,
        frames: this.frames,
      }),
      edgePaths: () => this.labels.screenPaths(),
    };
  }
}
