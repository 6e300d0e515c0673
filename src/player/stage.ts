// The stage: the graph drawn for one state — WebGL scene (edges, pulses, wall), HTML cards and edge
// labels, fitted to the stage's width. It knows nothing of controls or events: the sandbox hands it a
// timeline when the structure changes and a frame to draw.

import type { Timeline } from "../inference/types";
import { CARD_COMPACT, CARD_FULL, Cards } from "./cards";
import { readPalette, type RGB } from "./colors";
import type { Controls } from "./controls";
import { edgeCurves } from "./curves";
import { CARD_WORLD_WIDTH, type CardSize, DEFAULT_LIMITS, type Fit, fitStage } from "./fit";
import type { I18n } from "./i18n";
import { EdgeLabels } from "./labels";
import type { View } from "./model";
import type { Rect } from "./placement";
import { Scene } from "./scene";
import type { Frame } from "./timing";

const COMPACT_BELOW = 560; // stage width (px) under which cards switch to their compact size
const LABEL_MIN_SCALE = 0.88;
const CROWDED_BELOW = 0.7; // card scale under which older edge labels show only their contribution
const FALLBACK_WIDTH = 600; // before the first layout can measure anything
const MAX_HEIGHT_OF_VIEWPORT = 0.85; // a tall graph may take this share of the window's height

export interface StageInput {
  timeline: Timeline;
  frame: Frame;
  flagged: string | null;
  localDerivatives: boolean;
  view: View;
  dimmed: boolean;
}

export class Stage {
  readonly cards: Cards;
  readonly labels: EdgeLabels;
  private timeline: Timeline;
  private fit: Fit | null = null;
  private cardSize: CardSize = CARD_FULL;
  private labelScale = 1;
  private grownKey = ""; // which cards have grown (local derivatives), as the edges were routed
  private pointed: ReadonlySet<string> = new Set(); // edges under the pointer (or of the card under it)
  width = 0;

  constructor(
    private readonly ui: Controls,
    readonly scene: Scene,
    i18n: I18n,
    timeline: Timeline,
  ) {
    this.timeline = timeline;
    this.cards = new Cards(ui.cards, i18n);
    this.labels = new EdgeLabels(ui.edgeLabels, i18n);
  }

  /** A graph of a new structure: new cards, new fit, new edge shapes. */
  build(timeline: Timeline): void {
    this.timeline = timeline;
    this.cards.build(timeline);
    this.layout(true);
  }

  /** Same structure, new numbers. */
  refresh(timeline: Timeline): void {
    this.timeline = timeline;
    this.cards.refresh(timeline);
  }

  /** Fit the graph to the stage's width: card size, zoom, stage height, edge shapes. */
  layout(force = false, measured?: number): void {
    // Reading clientWidth forces a layout of the whole page: do it once, then trust the observer.
    const width = measured ?? (this.width || this.ui.stage.clientWidth || FALLBACK_WIDTH);
    if (!force && width === this.width) return;
    this.width = width;
    const compact = width < COMPACT_BELOW;
    this.cardSize = compact ? CARD_COMPACT : CARD_FULL;
    const maxHeight = Math.max(DEFAULT_LIMITS.maxHeight, Math.round(MAX_HEIGHT_OF_VIEWPORT * (window.innerHeight || 0)));
    const fit = fitStage(this.timeline, width, this.cardSize, { ...DEFAULT_LIMITS, maxHeight });
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
    const curves = edgeCurves(this.timeline, fit.positions, fit.cardHeight, grownUnits);
    this.scene.setGraph(curves, fit.positions, fit.cardHeight);
    this.labels.build(curves);
    this.pointed = new Set();
  }

  readPalette(): void {
    const palette = readPalette(this.ui.player);
    this.scene.setPalette(palette);
    const css = (c: RGB): string => `rgb(${c.map((x) => Math.round(x * 255)).join(" ")})`;
    this.ui.player.style.setProperty("--tdg-value-color", css(palette.primary));
    this.ui.player.style.setProperty("--tdg-grad-color", css(palette.accent));
  }

  /** Draw one frame; false when there is nothing fitted to draw yet. */
  draw(input: StageInput): boolean {
    const fit = this.fit;
    if (!fit) return false;
    const { frame, timeline, flagged } = input;
    this.cards.update(frame, timeline, flagged, input.localDerivatives);
    // Local derivatives make derived operations' cards taller: route the edges around them again.
    const grown = this.cards.grown(this.cardSize);
    if ([...grown].join(";") !== this.grownKey) this.routeEdges(grown);
    this.scene.setView(input.view);
    this.scene.draw({ frame, flagged, dimmed: input.dimmed });
    const project = this.scene.projector();
    const projected = new Map(Array.from(fit.positions, ([id, p]) => [id, project(p)]));
    // Cards nearer the viewer sit higher in the stack (z in scene units, around 0).
    const lift = new Map(Array.from(fit.positions, ([id, p]) => [id, Math.min(1, Math.max(0, 0.5 + p[2]))]));
    this.cards.place(projected, this.cardSize, fit.scale, lift);
    this.labels.update(frame, timeline, input.localDerivatives, this.pointed);
    const crowded = fit.scale < CROWDED_BELOW;
    const cards = (): Rect[] => this.cards.boxes(this.cardSize);
    this.labels.place(project, { width: this.width, height: fit.height, scale: this.labelScale, cards, crowded });
    return true;
  }

  /** Pointing at an edge, or at a card, brings its chain-rule labels forward in full; true if changed. */
  point(e: PointerEvent): boolean {
    if (e.pointerType === "touch") return false;
    const card = e.target instanceof Element ? e.target.closest<HTMLElement>("[data-node]") : null;
    if (card) {
      const id = card.dataset.node;
      return this.setPointed(new Set(this.timeline.edges.filter((edge) => edge.from === id || edge.to === id).map((edge) => edge.id)));
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
