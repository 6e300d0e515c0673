// The stage: the graph drawn for one state — WebGL scene (edges, pulses, wall), HTML cards and edge
// labels, fitted to the stage's width. Cards keep readable text: a graph too big for the stage at
// that size is panned (viewport.ts), the only input the stage handles itself. Otherwise it knows
// nothing of controls or events: the sandbox hands it a timeline when the structure changes and a
// frame to draw.

import { prefersReducedMotion } from "../shared/dom";
import type { NodeId, Timeline } from "../../inference/types";
import { CARD_COMPACT, CARD_COMPACT_WIDE, CARD_FULL, Cards } from "./cards";
import { CarriedNumbers } from "./carried";
import { markAccumulation } from "../teaching/codestep";
import { readPalette, type RGB } from "./colors";
import type { Controls } from "../controls/controls";
import { type EdgeCurve, edgeCurves } from "./curves";
import { CARD_WORLD_WIDTH, type CardSize, DEFAULT_LIMITS, type Fit, fitStage, type V3 } from "./fit";
import type { I18n } from "../shared/i18n";
import { EdgeLabels } from "./labels";
import type { View } from "../model/view";
import type { Rect } from "./placement";
import type { Scene } from "./scene";
import type { Frame } from "../model/timing";

/** Backward, and the gradient the current hand-off adds to already had a contribution: a real +=. */
function accumulating(frame: Frame): boolean {
  if (frame.direction !== "backward") return false;
  const now = frame.carried[0];
  if (!now) return false;
  const received = frame.nodes.get(now.to)?.received.length ?? 0;
  return received >= (now.landed ? 2 : 1);
}
import { moveToShow, Viewport } from "./viewport";
import { pastHeader } from "../page/toplink";

const COMPACT_BELOW = 560; // stage width (px) under which cards switch to their compact size
const LABEL_MIN_SCALE = 0.88;
const CROWDED_BELOW = 0.7; // card scale under which older edge labels show only their contribution
const FALLBACK_WIDTH = 600; // before the first layout can measure anything
const MAX_HEIGHT_OF_VIEWPORT = 0.8; // a tall graph may take this share of the window's height,
// but leaves this much of it (px) for the site's header and, under the graph, its pan hint, caption,
// toggles, folded predict legend and the timeline's buttons: all on one screen at 1280×800.
const ROOM_UNDER_TALL_STAGE = 320;
const TALL_STAGE_FLOOR = 360; // however short the window, but for the two below
// A short window (a phone turned to landscape) keeps this much (px) of its height for the site's header
// above the stage (56) and the step's two lines of words under it with their gap (52), and the 12 that
// sandbox.ts showStage leaves under them: all on one screen (walkthrough 25: at 844×390 the 326 px
// stage from y = 56 left the words at 389-431)...
const ROOM_FOR_HEADER_AND_CAPTION = 120;
// ... though never below the fit's own least height (fit.ts DEFAULT_LIMITS.minHeight).
// A stage taller than the window's height less this (px) leaves no room under it for the unfolded
// prediction fields as well as the timeline's buttons (walkthrough 24: the small neuron's 480 px stage
// put Pause and the timeline at y = 839-872 of 800 while its backward pass played).
const ROOM_UNDER_FIELDS = 400;
const FLAT: View = { yaw: 0, pitch: 0 }; // a panned graph is not turned
const LIFT = 0.5; // scene units the backward layer rises towards the viewer, in its edges' middles
const CHIP_PX = 5; // how thick a card looks from the side when the graph is turned fully
const PAN_BAR_PX = 8; // the scroll bars' strip, bottom and right (stage.css .tdg-pan-bar: 5 px, 3 px in)
const MIN_TEXT_PX = 10.2; // a card's value and grad are never drawn smaller than this (CSS px; the issue asks 10)

export interface StageInput {
  timeline: Timeline;
  frame: Frame;
  flagged: string | null;
  localDerivatives: boolean;
  view: View;
  dimmed: boolean;
  moved: ReadonlyMap<NodeId, number> | null; // what the last nudge changed each value by (model.ts)
}

export class Stage {
  readonly cards: Cards;
  readonly labels: EdgeLabels;
  private readonly carried: CarriedNumbers;
  private timeline: Timeline;
  private fit: Fit | null = null;
  private cardSize: CardSize = CARD_FULL;
  private labelScale = 1;
  private grown: Map<NodeId, number> = new Map(); // CSS px cards reach further down (local derivatives)
  private grownKey = ""; // ... as the stage was fitted and the edges routed
  private minScale = 0; // cards' smallest CSS scale: their numbers stay MIN_TEXT_PX high
  private pointed: ReadonlySet<string> = new Set(); // edges under the pointer (or of the card under it)
  private last: StageInput | null = null; // the frame drawn last, drawn again when the reader pans
  private redrawQueued = false;
  private readonly reducedMotion = prefersReducedMotion();
  private chip = ""; // the cards' side faces last set (CSS), for the view
  readonly viewport: Viewport;
  width = 0;

  /**
   * `requestDraw`: the sandbox's way to draw a frame soon (the reader panned). Without it the stage
   * draws its last frame again by itself.
   */
  constructor(
    private readonly ui: Controls,
    readonly scene: Scene,
    i18n: I18n,
    timeline: Timeline,
    private readonly requestDraw: (() => void) | null = null,
  ) {
    this.timeline = timeline;
    this.cards = new Cards(ui.cards, i18n);
    this.labels = new EdgeLabels(ui.edgeLabels, i18n);
    this.carried = new CarriedNumbers(ui.edgeLabels);
    this.viewport = new Viewport(ui.stage, i18n, this.panned, () => {
      this.layout(true);
      this.panned();
      // The stage changes height: its top may have left the window (walkthrough 11).
      ui.stage.scrollIntoView({ block: "nearest", behavior: this.reducedMotion ? "auto" : "smooth" });
    });
    // A card reached with Tab or the arrow keys comes into view: the graph pans to it. The browser
    // scrolls the page to where the card was before the pan (drawn in the next frame), and took the
    // whole stage out of the window (walk 35): once the pan is drawn, the page shows the whole stage.
    ui.cards.addEventListener("focusin", (e) => {
      const id = (e.target as Element).closest<HTMLElement>("[data-node]")?.dataset.node;
      const box = id && this.cards.boxOf(id, this.cardSize);
      if (!box || !this.viewport.pannable) return;
      const move = moveToShow(box, this.width, this.fit?.height ?? 0);
      if (!this.viewport.panBy(move.x, move.y)) return;
      this.panned();
      requestAnimationFrame(() => {
        ui.stage.scrollIntoView({ block: "nearest" });
        scrollBy(0, Math.min(0, pastHeader(ui.stage)));
      });
    });
    // "Reset view" also brings a panned graph back to its start.
    ui.resetView.addEventListener("click", () => {
      this.viewport.reset();
      this.panned();
    });
  }

  /** A graph of a new structure: new cards, new fit, new edge shapes, the pan back at the start. */
  build(timeline: Timeline): void {
    this.buildCards(timeline);
    this.layout(true, undefined, true);
  }

  /** build() cut into short tasks, `next()` between them, so that waking a big graph blocks the page for little. */
  async buildInSteps(timeline: Timeline, next: () => Promise<void>): Promise<void> {
    this.presize();
    this.newGraph(timeline);
    await this.cards.buildInSteps(timeline, next);
    await next();
    this.layout(true, undefined, true, false); // the fit; the edges follow
    await next();
    const fit = this.fit;
    const curves = this.curves();
    await next();
    this.applyCurves(this.fit === fit ? curves : this.curves()); // resized meanwhile: routed again
    await next();
    // The first frame's reads of the layout (card heights, the labels' fonts), before it is drawn.
    this.cards.measure(this.cardSize);
    this.labels.prepare();
  }

  /**
   * Before the first graph's cards exist: the stage's width, compact or not, the smallest scale, the
   * likely card size. New cards are then styled once; a class or a size set on the player after
   * they exist would restyle every element of every card again.
   */
  private presize(): void {
    const width = this.width || this.ui.stage.clientWidth || FALLBACK_WIDTH;
    this.compactness(width < COMPACT_BELOW);
    this.cards.setSize(width < COMPACT_BELOW ? CARD_COMPACT : CARD_FULL);
  }

  /**
   * A phone-wide stage (compact cards), or one too tall for the prediction fields and the timeline's
   * buttons under it both: the controls under it fold what they can.
   */
  get cramped(): boolean {
    return (
      (this.width || FALLBACK_WIDTH) < COMPACT_BELOW ||
      (this.fit?.height ?? 0) > innerHeight - ROOM_UNDER_FIELDS
    );
  }

  /** The cards' smallest scale: readable, but for the overview of a big graph (viewport.ts). */
  private get cardFloor(): number {
    return this.viewport.overview ? 0 : this.minScale;
  }

  /** Compact cards or full ones (player.css .is-compact), and the smallest scale that keeps their numbers readable. */
  private compactness(compact: boolean): void {
    const player = this.ui.player;
    if (player.classList.contains("is-compact") === compact && this.minScale !== 0) return;
    player.classList.toggle("is-compact", compact);
    this.minScale = Math.min(1, MIN_TEXT_PX / this.cards.numberSize()); // one style read per new card size
    this.labels.remeasure(); // compact labels are set smaller (player.css)
  }

  private buildCards(timeline: Timeline): void {
    this.newGraph(timeline);
    this.cards.build(timeline);
  }

  private newGraph(timeline: Timeline): void {
    this.timeline = timeline;
    this.grown = new Map();
  }

  /** Same structure, new numbers. */
  refresh(timeline: Timeline): void {
    this.timeline = timeline;
    this.cards.refresh(timeline);
  }

  /**
   * Fit the graph to the stage's width: card size, zoom, stage height, how far it pans, edge shapes.
   * `fresh`: a new graph, whose pan starts over.
   */
  layout(force = false, measured?: number, fresh = false, route = true): void {
    // Reading clientWidth forces a layout of the whole page: do it once, then trust the observer.
    const width = measured ?? (this.width || this.ui.stage.clientWidth || FALLBACK_WIDTH);
    if (!force && width === this.width) return;
    const resized = width !== this.width;
    this.width = width;
    const compact = width < COMPACT_BELOW;
    this.compactness(compact);
    const windowHeight = innerHeight || 0; // 0: no window to fit (the default limit)
    const share = Math.max(DEFAULT_LIMITS.maxHeight, Math.round(MAX_HEIGHT_OF_VIEWPORT * windowHeight));
    const room = windowHeight ? windowHeight - ROOM_UNDER_TALL_STAGE : share;
    const short = windowHeight ? windowHeight - ROOM_FOR_HEADER_AND_CAPTION : TALL_STAGE_FLOOR;
    const floor = Math.max(DEFAULT_LIMITS.minHeight, Math.min(TALL_STAGE_FLOOR, short));
    const maxHeight = Math.max(floor, Math.min(share, room));
    const limits = { ...DEFAULT_LIMITS, maxHeight, minScale: this.minScale };
    let size = compact ? CARD_COMPACT : CARD_FULL;
    let fit = fitStage(this.timeline, width, size, limits, this.grown);
    const panned = (f: Fit): boolean => f.world.width > width + 2 || f.world.height > f.height + 2;
    // The overview (viewport.ts) shrinks the cards as far as the whole graph needs; a graph that fits
    // at a readable size has none.
    if (this.viewport.overview && !panned(fit)) this.viewport.overview = false;
    if (this.viewport.overview)
      fit = fitStage(this.timeline, width, size, { ...limits, minScale: 0 }, this.grown);
    // A phone's narrow cards are there to fit the graph; a graph panned anyway gets room for long numbers.
    else if (compact && (fit.bands !== null || panned(fit))) {
      size = CARD_COMPACT_WIDE;
      fit = fitStage(this.timeline, width, size, limits, this.grown);
    }
    const sized = size !== this.cardSize;
    this.cardSize = size;
    this.fit = fit;
    this.cards.setSize(this.cardSize);
    // Labels shrink with the cards, but never below what stays comfortably readable.
    this.labelScale = Math.min(1, Math.max(LABEL_MIN_SCALE, fit.scale));
    // On the player, not the stage: a phone turned sideways keeps the caption under it (stage.css).
    this.ui.player.style.setProperty("--tdg-stage-height", `${fit.height}px`);
    this.scene.setSize(width, fit.height, fit.ppu);
    this.viewport.setBounds({ width, height: fit.height }, fit.world, fresh);
    this.aim();
    this.cards.resize(resized || fresh || sized);
    if (route) this.routeEdges();
  }

  /** Edge shapes for the fitted graph, around the cards that have grown. */
  private routeEdges(): void {
    this.applyCurves(this.curves());
  }

  private curves(): EdgeCurve[] {
    const fit = this.fit;
    if (!fit) return [];
    this.grownKey = [...this.grown].join(";");
    const perUnit = this.cardSize.width / CARD_WORLD_WIDTH;
    const grownUnits = new Map(Array.from(this.grown, ([id, px]) => [id, px / perUnit]));
    return edgeCurves(this.timeline, fit.positions, fit.cardHeight, grownUnits, fit.bands);
  }

  private applyCurves(curves: EdgeCurve[]): void {
    const fit = this.fit;
    if (!fit) return;
    this.scene.setGraph(curves, fit.positions, fit.cardHeight);
    this.labels.build(curves);
    this.carried.build(curves);
    this.pointed = new Set();
  }

  /** Point the camera at the part of the graph the viewport shows. */
  private aim(): void {
    const ppu = this.fit?.ppu ?? 1;
    this.scene.setPan(this.viewport.pan.x / ppu, -this.viewport.pan.y / ppu);
  }

  /** The reader panned: aim the camera there, and draw again soon. */
  private readonly panned = (): void => {
    this.aim();
    this.redraw();
  };

  private redraw(): void {
    if (this.requestDraw) {
      this.requestDraw();
      return;
    }
    if (this.redrawQueued) return;
    this.redrawQueued = true;
    requestAnimationFrame(() => {
      this.redrawQueued = false;
      if (this.last) this.draw(this.last);
    });
  }

  readPalette(): void {
    const palette = readPalette(this.ui.player);
    this.scene.setPalette(palette);
    const css = (c: RGB, alpha = ""): string => `rgb(${c.map((x) => Math.round(x * 255)).join(" ")}${alpha})`;
    this.ui.player.style.setProperty("--tdg-value-color", css(palette.primary));
    this.ui.player.style.setProperty("--tdg-grad-color", css(palette.accent));
    this.ui.player.style.setProperty("--tdg-negative-color", css(palette.negative));
    // A chip's side: the text's colour 22 % into the background (the colour taken opaque: a shade
    // darker than CSS's color-mix of Material's translucent text); the halo: the pulse's, 70 % opaque.
    const side = palette.fg.map((f, i) => f * 0.22 + palette.bg[i]! * 0.78) as RGB;
    this.cards.setColours(css(side), css(palette.primary, " / 0.7"), css(palette.accent, " / 0.7"));
  }

  /** Draw one frame; false when there is nothing fitted to draw yet. */
  draw(input: StageInput): boolean {
    if (!this.fit) return false;
    this.last = input;
    const { frame, timeline, flagged } = input;
    this.cards.update(frame, timeline, flagged, input.localDerivatives, input.moved);
    // Local derivatives hang a panel under derived operations' cards: make room, route around them.
    const grown = this.cards.grown(this.cardSize, this.width);
    if ([...grown].join(";") !== this.grownKey) {
      this.grown = grown;
      this.layout(true);
    }
    const fit = this.fit;
    // A graph bigger than the stage lies flat, like a map: turned, its far end would shrink and crowd.
    const view = this.viewport.flat ? FLAT : input.view; // a map, not a model
    this.scene.setView(view);
    this.scene.centre(!this.viewport.flat, CARD_WORLD_WIDTH / 2);
    this.showChips(view);
    const lift = this.liftAt(frame);
    let project = this.scene.projector();
    if (this.follow(frame, project)) project = this.scene.projector();
    this.scene.draw({ frame, flagged, dimmed: input.dimmed, lift });
    const projected = new Map(Array.from(fit.positions, ([id, p]) => [id, project(p)]));
    // Cards nearer the viewer sit higher in the stack (z in scene units, around 0).
    const standOut = new Map(
      Array.from(fit.positions, ([id, p]) => [id, Math.min(1, Math.max(0, 0.5 + p[2]))]),
    );
    this.cards.place(projected, this.cardSize, fit.scale, standOut, this.cardFloor, this.width);
    if (this.cards.measureGuessesAgain()) this.redraw(); // now that the new cards have their places
    this.labels.update(frame, timeline, input.localDerivatives, this.pointed, input.moved);
    const crowded = fit.scale < CROWDED_BELOW;
    let boxes: Rect[] | null = null; // read once, for the labels and the carried numbers alike
    const cards = (): Rect[] => (boxes ??= this.cards.boxes(this.cardSize));
    const along = (curve: EdgeCurve, at: number): V3 => this.scene.edgePoint(curve, at, lift);
    const geometry = `${this.scene.version}:${lift}:${this.labelScale}`;
    const bars = this.viewport.bars; // labels keep off the scroll bars too (xb14: one lay on the bottom one)
    this.labels.place(project, {
      width: this.width - (bars.y ? PAN_BAR_PX : 0),
      height: fit.height - (bars.x ? PAN_BAR_PX : 0),
      scale: this.labelScale,
      cards,
      crowded,
      overview: this.viewport.overview,
      along,
      geometry,
    });
    this.carried.place(
      frame,
      project,
      (curve, at, kind) => this.scene.edgePoint(curve, at, kind === "backward" ? lift : 0),
      cards,
      () => this.labels.boxes(),
    );
    // The strip's text for this frame is written after the stage has drawn: mark its += then.
    const on = accumulating(frame);
    queueMicrotask(() => markAccumulation(this.ui.codeLine, on));
    return true;
  }

  /**
   * Backward travels on its own layer: over the seed event the gradient edges rise off the values'
   * plane towards the viewer (at once with reduced motion), so a turned graph shows two sheets. A
   * panned graph, or the overview of one, lies flat like a map: no layer there.
   */
  private liftAt(frame: Frame): number {
    if (frame.direction !== "backward" || this.viewport.flat) return 0;
    if (this.reducedMotion) return LIFT;
    const t = Math.min(1, Math.max(0, frame.time));
    return LIFT * t * t * (3 - 2 * t);
  }

  /** Cards are chips: turned, their side shows on the side facing the viewer (player.css). */
  private showChips(view: View): void {
    const x = (-Math.sin(view.yaw) * CHIP_PX) / Math.sin(0.55);
    const y = (Math.sin(view.pitch) * CHIP_PX) / Math.sin(0.3);
    const chip = `${x.toFixed(1)}|${y.toFixed(1)}`;
    if (chip === this.chip) return;
    this.chip = chip;
    this.cards.setChip(Number(x.toFixed(1)), Number(y.toFixed(1)));
  }

  /** A panned graph keeps the card the pulse is at in view (until the reader pans by hand). */
  private follow(frame: Frame, project: ReturnType<Scene["projector"]>): boolean {
    const fit = this.fit;
    if (!fit || !this.viewport.follow || !this.viewport.pannable) return false;
    // The cards at both ends of what is travelling now, with the card it is about (walkthrough 15: a
    // big graph opened with the first sum in view and the leaf feeding it cut by the frame's top).
    const ends = new Set<string>();
    for (const edge of this.timeline.edges) {
      const e = frame.edges.get(edge.id);
      if (e && (e.label?.current || (e.fill > 0 && e.fill < 1))) ends.add(edge.from).add(edge.to);
    }
    // Too far apart for the frame (a link to a step, a phone), the card the step is about wins.
    const boxes = [];
    const focus = [];
    for (const [id, state] of frame.nodes) {
      const p = fit.positions.get(id);
      if (!(state.active || ends.has(id)) || !p) continue;
      const at = project(p);
      const s = Math.max(this.cardFloor, fit.scale * at.scale);
      const w = this.cardSize.width * s;
      const h = (this.cardSize.height + (this.grown.get(id) ?? 0)) * s;
      const box = { x: at.x - w / 2, y: at.y - (this.cardSize.height * s) / 2, w, h };
      boxes.push(box);
      if (state.active) focus.push(box);
    }
    if (!this.viewport.keepInView(boxes, focus)) return false;
    this.aim();
    return true;
  }

  /** Pointing at an edge, or at a card, brings its chain-rule labels forward in full; true if changed. */
  point(e: PointerEvent): boolean {
    if (e.pointerType === "touch") return false;
    const card = e.target instanceof Element ? e.target.closest<HTMLElement>("[data-node]") : null;
    if (card) {
      const id = card.dataset.node;
      return this.setPointed(
        new Set(
          this.timeline.edges.filter((edge) => edge.from === id || edge.to === id).map((edge) => edge.id),
        ),
      );
    }
    const box = this.ui.stage.getBoundingClientRect();
    const edge = this.labels.edgeAt(e.clientX - box.left, e.clientY - box.top);
    return this.setPointed(new Set(edge ? [edge] : []));
  }

  setPointed(edges: ReadonlySet<string>): boolean {
    const same = edges.size === this.pointed.size && [...edges].every((id) => this.pointed.has(id));
    if (same) return false;
    this.pointed = edges;
    return true;
  }

  /** Sizes are measured in the page's fonts: measure again once web fonts have arrived. */
  remeasure(): void {
    this.labels.remeasure();
    this.cards.resize();
  }
}
