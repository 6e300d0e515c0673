// HTML labels on the edges: during backward, `incoming × local = contribution` at the middle of
// each edge once its hand-off happens; with "local derivatives" on, the local derivative alone.

import type { EdgeId, Timeline } from "../inference/types";
import { type EdgeCurve, pointOnEdge } from "./curves";
import { setAttr, setText, h } from "./dom";
import { formatNumber } from "./format";
import type { I18n } from "./i18n";
import type { Projected } from "./scene";
import type { V3 } from "./fit";
import type { Frame } from "./timing";

interface Label {
  el: HTMLElement;
  curve: EdgeCurve;
}

export class EdgeLabels {
  private labels = new Map<EdgeId, Label>();

  constructor(
    private readonly layer: HTMLElement,
    private readonly i18n: I18n,
  ) {}

  build(curves: EdgeCurve[]): void {
    this.layer.replaceChildren();
    this.labels.clear();
    for (const curve of curves) {
      const el = h("span", { class: "tdg-edge-label", "data-edge": curve.id, hidden: true });
      this.labels.set(curve.id, { el, curve });
      this.layer.append(el);
    }
  }

  update(frame: Frame, timeline: Timeline, localDerivatives: boolean): void {
    const local = new Map(timeline.edges.map((e) => [e.id, e.local]));
    for (const [id, label] of this.labels) {
      const state = frame.edges.get(id)?.label ?? null;
      let text = "";
      let kind = "";
      if (state) {
        text = `${formatNumber(state.incoming)} × ${formatNumber(state.local)} = ${formatNumber(state.contribution)}`;
        kind = state.current ? "current" : "done";
      } else if (localDerivatives) {
        text = this.i18n.t("local_tag", { value: formatNumber(local.get(id) ?? 0) });
        kind = "local";
      }
      setText(label.el, text);
      setAttr(label.el, "data-kind", kind || null);
      if (label.el.hidden !== (text === "")) label.el.hidden = text === "";
    }
  }

  place(project: (p: V3) => Projected): void {
    for (const label of this.labels.values()) {
      if (label.el.hidden) continue;
      const kind = label.el.getAttribute("data-kind");
      const p = project(pointOnEdge(label.curve, kind === "local" ? 0.62 : 0.5));
      label.el.style.transform = `translate(${Math.round(p.x)}px, ${Math.round(p.y)}px) translate(-50%, -50%) scale(var(--tdg-label-scale, 1))`;
    }
  }
}
