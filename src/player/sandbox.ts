// One sandbox: state (model.ts) in, pictures (scene, cards, labels, controls) out.
// Events change the state and mark it dirty; a frame is drawn only when something changed or while
// the pulse plays, and every frame is frameAt(timeline, time): nothing else decides what is shown.

import type { ErrorPayload, Timeline } from "../inference/types";
import { CARD_COMPACT, CARD_FULL, Cards } from "./cards";
import { CodeListing, type CodeKey } from "./codestep";
import { readPalette, type RGB } from "./colors";
import { buildControls, buildSliders, type Controls, fillNudgeLeaves, type Preset, type Slider, widenSlider } from "./controls";
import { type EdgeCurve, edgeCurves } from "./curves";
import { debugHandle } from "./debug";
import { h, setAttr, setText } from "./dom";
import { recompute } from "./engine";
import { nameOf, prettyLabel } from "./expansion";
import { type CardSize, type Fit, fitStage } from "./fit";
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
let firstFrameMarked = false;

export class Sandbox {
  private state: SandboxState;
  private readonly i18n: I18n;
  private readonly ui: Controls;
  private readonly cards: Cards;
  private readonly labels: EdgeLabels;
  private sliders: Slider[] = [];
  private fit: Fit | null = null;
  private curves: EdgeCurve[] = [];
  private structure = "";
  private variableNames = "";
  private cardSize: CardSize = CARD_FULL;
  private stageWidth = 0;
  private frameRequested = false;
  private lastTick = 0;
  private carry = 0;
  private interacted = false;
  private inputStart: number | null = null;
  private lastCompleted = -1;
  private lastNarrated = "";
  private urlTimer: number | undefined;
  private readonly listing: CodeListing | null;
  private readonly reducedMotion: boolean;
  private drawnOnce = false;
  private frames = 0;
  private tableRows = new Map<string, HTMLTableCellElement[]>();
  private topoItems = new Map<string, HTMLElement>();

  private constructor(
    private readonly root: HTMLElement,
    private readonly data: SandboxData,
    private readonly scene: Scene,
    ui: Controls,
    i18n: I18n,
  ) {
    this.ui = ui;
    this.i18n = i18n;
    this.reducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
    this.state = initialState(data.timeline, data.values);
    if (this.reducedMotion) this.state = { ...this.state, time: this.state.schedule.duration };
    this.cards = new Cards(ui.cards, i18n);
    this.labels = new EdgeLabels(ui.edgeLabels, i18n);
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
    debugHandle().sandboxes[this.root.id || `sandbox-${Object.keys(debugHandle().sandboxes).length}`] = {
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
    };
    if (!moment) this.autoplayWhenVisible();
  }

  // ---- state changes -------------------------------------------------------------------------

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
      this.buildTable(timeline);
      this.buildTopo(timeline);
    } else {
      this.cards.refresh(timeline);
    }
    const names = timeline.variables.map((v) => v.name).join(",");
    if (names !== this.variableNames) {
      this.variableNames = names;
      this.sliders = buildSliders(this.ui.variables, this.i18n, timeline.variables.map((v) => ({ name: v.name, value: this.state.values[v.name] ?? v.value })));
      this.wireSliders();
      fillNudgeLeaves(this.ui.nudgeLeaf, timeline.nodes.filter((n) => n.op === "var"));
    }
    this.syncSliders();
    this.syncPresets();
    setAttr(this.ui.stage, "aria-label", this.i18n.t("stage_label", { expression: prettyLabel(timeline.expression) }));
  }

  /** Fit the graph to the stage's width: card size, zoom, stage height, edge shapes. */
  private layoutStage(force = false): void {
    const width = this.ui.stage.clientWidth || this.root.clientWidth || 600;
    if (!force && width === this.stageWidth) return;
    this.stageWidth = width;
    this.cardSize = width < COMPACT_BELOW ? CARD_COMPACT : CARD_FULL;
    this.ui.player.classList.toggle("is-compact", width < COMPACT_BELOW);
    this.ui.player.style.setProperty("--tdg-card-w", `${this.cardSize.width}px`);
    this.ui.player.style.setProperty("--tdg-card-h", `${this.cardSize.height}px`);
    const fit = fitStage(this.state.timeline, width, this.cardSize);
    this.fit = fit;
    this.ui.stage.style.height = `${fit.height}px`;
    this.scene.setSize(width, fit.height, fit.ppu);
    this.curves = edgeCurves(this.state.timeline, fit.positions, fit.cardHeight);
    this.scene.setGraph(this.curves, fit.positions);
    this.labels.build(this.curves);
  }

  private recomputeFrom(expression: string): void {
    const result = recompute(expression, this.state.values);
    if (result.ok) {
      this.state = { ...this.state, expression: this.ui.expression.value };
      this.showGraph(result.timeline);
      this.setError(null);
    } else {
      this.setError(result.error);
    }
    this.update(this.state);
  }

  private setError(error: ErrorPayload | null): void {
    this.state = { ...this.state, error };
    const ui = this.ui;
    const flagged = this.flaggedNode();
    if (!error) {
      ui.error.hidden = true;
      setText(ui.error, "");
      setAttr(ui.expression, "aria-invalid", null);
      this.markSpan(null);
      return;
    }
    const message = errorMessage(this.i18n, error);
    const parts: string[] = [];
    if (flagged) {
      const node = this.state.timeline.nodes.find((n) => n.id === flagged);
      parts.push(node ? `${prettyLabel(node.label)}: ${message}` : message, this.i18n.t("error_kept"));
    } else {
      parts.push(message);
      const span = spanText(ui.expression.value, error);
      if (span.trim()) parts.push(this.i18n.t("error_at", { text: span }));
    }
    setText(ui.error, parts.join(" "));
    ui.error.dataset.code = error.code;
    ui.error.hidden = false;
    setAttr(ui.expression, "aria-invalid", flagged ? null : "true");
    this.markSpan(error);
  }

  /** The node a numeric error is about, when it belongs to the graph on screen. */
  private flaggedNode(): string | null {
    const error = this.state.error;
    if (!error?.node) return null;
    return this.ui.expression.value === this.state.timeline.expression ? error.node : null;
  }

  /** Underline the offending characters in the mirror under the input. */
  private markSpan(error: ErrorPayload | null): void {
    const text = this.ui.expression.value;
    const mirror = this.ui.mirror;
    if (!error || error.start === undefined) {
      mirror.replaceChildren(text);
      return;
    }
    const chars = Array.from(text); // spans count code points
    const start = Math.min(error.start, chars.length);
    const end = Math.max(start, Math.min(error.end ?? start, chars.length));
    const marked = chars.slice(start, end).join("");
    mirror.replaceChildren(
      chars.slice(0, start).join(""),
      h("mark", { class: "tdg-error-span", "data-start": start, "data-end": end }, marked || "\u00a0"),
      chars.slice(end).join(""),
    );
    mirror.scrollLeft = this.ui.expression.scrollLeft;
  }

  private applyMoment(m: SharedMoment): void {
    const expression = m.expression ?? this.state.expression;
    this.state = { ...this.state, values: { ...this.state.values, ...m.values } };
    this.ui.expression.value = expression;
    const changed = expression !== this.state.timeline.expression || Object.entries(m.values).some(([k, v]) => this.state.values[k] !== v || this.state.timeline.variables.some((x) => x.name === k && x.value !== v));
    if (changed) {
      const result = recompute(expression, this.state.values);
      if (result.ok) {
        this.state = { ...this.state, expression };
        this.showGraph(result.timeline);
        this.setError(null);
      } else {
        this.state = { ...this.state, expression };
        this.setError(result.error);
      }
    }
    let next = restart(this.state, m.direction ?? this.state.direction, false);
    next = { ...next, localDerivatives: m.localDerivatives ?? next.localDerivatives, finalGradients: m.finalGradients ?? next.finalGradients };
    next = seek(next, m.time ?? 0);
    this.state = next;
    this.interacted = true;
    this.invalidate();
  }

  // ---- events ---------------------------------------------------------------------------------

  private wire(): void {
    const ui = this.ui;
    ui.expression.addEventListener("input", (e) => {
      this.inputStart = e.timeStamp || performance.now();
      this.state = { ...this.state, expression: ui.expression.value };
      this.markSpan(null);
      this.recomputeFrom(ui.expression.value);
    });
    ui.expression.addEventListener("scroll", () => (ui.mirror.scrollLeft = ui.expression.scrollLeft));
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
    const observer = new MutationObserver(() => {
      this.readPalette();
      this.invalidate();
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme", "data-md-color-primary", "data-md-color-accent"] });
    window.matchMedia?.("(prefers-color-scheme: dark)").addEventListener?.("change", () => {
      this.readPalette();
      this.invalidate();
    });
    new ResizeObserver(() => {
      const before = this.stageWidth;
      this.layoutStage();
      if (this.stageWidth !== before) this.invalidate();
    }).observe(this.ui.player);
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

  private setValue(name: string, value: number, timeStamp: number): void {
    this.inputStart = timeStamp || performance.now();
    this.state = { ...this.state, values: { ...this.state.values, [name]: value } };
    // With an unreadable expression in the input, the sliders keep driving the graph on screen.
    const inputBroken = this.state.error !== null && !this.state.error.node && this.ui.expression.value !== this.state.timeline.expression;
    if (inputBroken) {
      const result = recompute(this.state.timeline.expression, this.state.values);
      if (result.ok) this.showGraph(result.timeline);
      this.update(this.state);
      return;
    }
    this.recomputeFrom(this.ui.expression.value);
  }

  private loadPreset(preset: Preset & { timeline?: Timeline }): void {
    this.ui.expression.value = preset.expression;
    this.state = { ...this.state, expression: preset.expression, values: { ...this.state.values, ...preset.values } };
    if (preset.timeline) {
      this.showGraph(preset.timeline);
      this.setError(null);
    } else {
      const result = recompute(preset.expression, this.state.values);
      if (result.ok) {
        this.showGraph(result.timeline);
        this.setError(null);
      } else this.setError(result.error);
    }
    this.update(restart(this.state, this.state.direction, !this.reducedMotion));
  }

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
      this.update({ ...this.state, view }, false);
      this.interacted = true;
    });
    const end = (e: PointerEvent): void => {
      if (!drag || e.pointerId !== drag.id) return;
      drag = null;
      stage.classList.remove("is-dragging");
    };
    stage.addEventListener("pointerup", end);
    stage.addEventListener("pointercancel", end);
    stage.addEventListener("keydown", (e) => {
      const delta: Record<string, [number, number]> = { ArrowLeft: [-0.08, 0], ArrowRight: [0.08, 0], ArrowUp: [0, -0.06], ArrowDown: [0, 0.06] };
      const d = delta[e.key];
      if (!d || e.target !== stage) return;
      e.preventDefault();
      this.update({ ...this.state, view: clampView({ yaw: this.state.view.yaw + d[0], pitch: this.state.view.pitch + d[1] }) }, false);
    });
  }

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
      setText(this.ui.status, this.i18n.t("link_ready"));
    }
  }

  private nudge(): void {
    const name = this.ui.nudgeLeaf.value;
    const hValue = parseNumber(this.ui.nudgeH.value);
    const hStep = Number.isFinite(hValue) && hValue !== 0 ? hValue : 0.001;
    const timeline = this.state.timeline;
    const root = timeline.nodes.find((n) => n.id === timeline.root);
    const leaf = timeline.nodes.find((n) => n.op === "var" && n.name === name);
    if (!root || !leaf) return;
    const values = { ...valuesFor(this.state), [name]: leaf.value + hStep };
    const result = recompute(timeline.expression, values);
    if (!result.ok) {
      setText(this.ui.nudgeResult, this.i18n.t("nudge_failed", { message: errorMessage(this.i18n, result.error) }));
      return;
    }
    const after = result.timeline.nodes.find((n) => n.id === result.timeline.root)?.value ?? NaN;
    const ratio = (after - root.value) / hStep;
    setText(
      this.ui.nudgeResult,
      this.i18n.t("nudge_result", {
        name,
        h: formatNumber(hStep),
        before: formatPrecise(root.value),
        after: formatPrecise(after),
        ratio: formatNumber(ratio),
        grad: formatNumber(leaf.grad),
      }),
    );
    this.ui.nudgeResult.dataset.ratio = String(ratio);
    this.ui.nudgeResult.dataset.grad = String(leaf.grad);
  }

  // ---- URL --------------------------------------------------------------------------------------

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

  // ---- drawing ----------------------------------------------------------------------------------

  private readPalette(): void {
    const palette = readPalette(this.ui.player);
    this.scene.setPalette(palette);
    const css = (c: RGB): string => `rgb(${c.map((x) => Math.round(x * 255)).join(" ")})`;
    this.ui.player.style.setProperty("--tdg-value-color", css(palette.primary));
    this.ui.player.style.setProperty("--tdg-grad-color", css(palette.accent));
  }

  private invalidate(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(this.tick);
  }

  private readonly tick = (now: number): void => {
    this.frameRequested = false;
    if (this.state.playing) {
      const dt = this.lastTick ? Math.min(0.1, (now - this.lastTick) / 1000) : 0;
      this.lastTick = now;
      const r = advance(this.state, dt, this.reducedMotion, this.carry);
      this.state = r.state;
      this.carry = r.carry;
      if (!this.state.playing) this.scheduleUrlIfInteracted();
    } else {
      this.lastTick = 0;
      this.carry = 0;
    }
    this.render();
    if (this.state.playing) this.invalidate();
  };

  private scheduleUrlIfInteracted(): void {
    if (this.interacted) this.scheduleUrl();
  }

  private render(): void {
    const s = this.state;
    const fit = this.fit;
    if (!fit) return;
    this.frames += 1;
    const frame = frameAt(s.timeline, s.schedule, s.time, s.finalGradients);
    const flagged = this.flaggedNode();
    this.scene.setView(s.view);
    this.scene.draw({ frame, flagged, dimmed: s.direction === "forward" && frame.completed === 0 });
    const projected = new Map(Array.from(fit.positions, ([id, p]) => [id, this.scene.project(p)]));
    this.cards.update(frame, s.timeline, flagged, s.localDerivatives);
    this.cards.place(projected, this.cardSize, fit.scale);
    this.labels.update(frame, s.timeline, s.localDerivatives);
    this.labels.place((p) => this.scene.project(p));
    this.syncControls(frame);
    this.syncTable(frame);
    this.syncCodeStep(frame);
    this.narrate(frame);
    if (this.inputStart !== null) {
      performance.measure("tinydag:input-to-frame", { start: this.inputStart, end: performance.now() });
      this.inputStart = null;
    }
    if (!this.drawnOnce) {
      this.drawnOnce = true;
      performance.mark(`tinydag:first-frame:${this.root.id}`);
      if (!firstFrameMarked) {
        firstFrameMarked = true;
        performance.mark("tinydag:first-frame");
      }
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
    const ui = this.ui;
    this.syncButtons();
    const event = s.schedule.events[frame.current];
    const stepNumber = frame.completed;
    setText(ui.timeText, `${stepNumber} / ${s.schedule.duration}`);
    setAttr(
      ui.time,
      "aria-valuetext",
      event && frame.completed > 0
        ? this.i18n.t("time_step", { step: stepNumber, total: s.schedule.duration, event: describeEvent(s.schedule.events[frame.completed - 1]!, s.timeline, this.i18n) })
        : this.i18n.t("time_start", { direction: this.i18n.t(s.direction) }),
    );
    ui.legend.hidden = s.direction !== "backward";
    ui.player.classList.toggle("is-playing", s.playing);
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

  private buildTable(timeline: Timeline): void {
    this.tableRows.clear();
    this.ui.tableBody.replaceChildren(
      ...timeline.nodes.map((node) => {
        const cells = [h("th", { scope: "row" }, prettyLabel(node.label)), h("td", {}, node.op), h("td", {}, "--"), h("td", {}, "--")];
        this.tableRows.set(node.id, cells);
        return h("tr", { "data-row-node": node.id }, ...cells);
      }),
    );
  }

  private syncTable(frame: Frame): void {
    for (const [id, cells] of this.tableRows) {
      const state = frame.nodes.get(id);
      if (!state) continue;
      setText(cells[2]!, state.value === null ? "--" : formatNumber(state.value));
      setText(cells[3]!, state.grad === null ? "--" : formatNumber(state.grad));
    }
  }

  private buildTopo(timeline: Timeline): void {
    this.topoItems.clear();
    const byId = new Map(timeline.nodes.map((n) => [n.id, n]));
    this.ui.topo.replaceChildren(
      ...timeline.topo.map((id) => {
        const node = byId.get(id);
        const item = h("li", { "data-topo-node": id }, node ? prettyLabel(node.label) : id);
        this.topoItems.set(id, item);
        return item;
      }),
    );
  }

  private syncCodeStep(frame: Frame): void {
    const s = this.state;
    const event = s.schedule.events[frame.current];
    let key: CodeKey | null = null;
    let current: string | null = null;
    let text = "";
    const nodes = new Map(s.timeline.nodes.map((n) => [n.id, n]));
    const name = (id: string): string => {
      const n = nodes.get(id);
      return n ? nameOf(n) : id;
    };
    const label = (id: string): string => prettyLabel(nodes.get(id)?.label ?? id);
    if (event?.kind === "compute") {
      key = nodes.get(event.step.node)?.op ?? null;
      current = event.step.node;
      text = this.i18n.t("code_forward", { node: label(event.step.node) });
    } else if (event?.kind === "seed") {
      key = "seed";
      current = event.node;
      text = this.i18n.t("code_seed", { node: name(event.node) });
    } else if (event?.kind === "handoff") {
      key = "backward";
      current = event.step.parent;
      text = this.i18n.t("code_backward", { node: label(event.step.parent), child: label(event.step.child) });
    }
    const topoIndex = current ? s.timeline.topo.indexOf(current) : -1;
    s.timeline.topo.forEach((id, i) => {
      const item = this.topoItems.get(id);
      if (!item) return;
      const state = id === current ? "current" : topoIndex < 0 ? "" : (s.direction === "backward" ? i > topoIndex : i < topoIndex) ? "done" : "";
      setAttr(item, "data-state", state || null);
      setAttr(item, "aria-current", id === current ? "step" : null);
    });
    const line = key ? (this.listing?.lineText(key) ?? "").replace(/\s+#.*$/, "") : "";
    setText(this.ui.codeLine, key ? `${line}${line ? "   ← " : ""}${text}` : "");
    if (this.listing && (this.interacted || s.playing)) this.listing.highlight(this, key);
  }

  private narrate(frame: Frame): void {
    const s = this.state;
    if (frame.completed === this.lastCompleted) return;
    this.lastCompleted = frame.completed;
    const event = s.schedule.events[frame.completed - 1];
    if (!event || !this.interacted) return;
    const sentence = describeEvent(event, s.timeline, this.i18n);
    if (sentence !== this.lastNarrated) {
      this.lastNarrated = sentence;
      setText(this.ui.live, sentence);
    }
  }
}

/** The expression text an error's span covers (spans count code points). */
function spanText(text: string, error: ErrorPayload): string {
  if (error.start === undefined) return "";
  return Array.from(text)
    .slice(error.start, error.end ?? error.start)
    .join("");
}

/** More digits than the cards: the nudge check compares outputs that differ in the 4th place. */
function formatPrecise(x: number): string {
  return Number(x.toPrecision(7)).toString().replace(/^-/, "\u2212");
}

