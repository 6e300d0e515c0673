// The gear train as drawn: each wheel's place, size and teeth for the ratios now (gears_train.py draws
// the same train for the static figure), and the teeth and hands turned to the values' angles.

import { setAttr, setText } from "../player/shared/dom";
import {
  bodies,
  CENTER_Y,
  fixed,
  gearPath,
  handLength,
  type Pair,
  TIP,
  type Turns,
  type Wheel,
} from "./gears-model";

const FIGURE_WIDTH = 600; // the SVG's viewBox (gears.py WIDTH)
const EDGE = 4; // kept between a text and the figure's edge
export const WHEELS = ["x", "u", "u2", "y"] as const; // u2: the u shaft's second wheel, which drives y
export type WheelName = (typeof WHEELS)[number];

interface WheelParts {
  group: SVGGElement;
  teeth: SVGGElement;
  rotor: SVGGElement;
}

export class TrainView {
  private readonly parts: Record<WheelName, WheelParts>;

  constructor(
    private readonly live: HTMLElement,
    public pairs: [Pair, Pair],
    private readonly notToScale: string, // the words under a pair whose sizes cannot be its ratio
  ) {
    this.parts = Object.fromEntries(
      WHEELS.map((g) => {
        const group = live.querySelector<SVGGElement>(`.tdg-gear-${g}`)!;
        const teeth = group.querySelector<SVGGElement>(".tdg-gear-teeth")!;
        return [g, { group, teeth, rotor: group.querySelector<SVGGElement>(".tdg-gear-rotor")! }];
      }),
    ) as Record<WheelName, WheelParts>;
  }

  wheel(g: WheelName): Wheel {
    const [first, second] = this.pairs;
    return g === "x" ? first.driver : g === "u" ? first.driven : g === "u2" ? second.driver : second.driven;
  }

  /** Sizes and places for the ratios now (gears.py draws the same train for the start). */
  layout(pairs: [Pair, Pair]): void {
    this.pairs = pairs;
    for (const g of WHEELS) {
      const w = this.wheel(g);
      const { group } = this.parts[g];
      setAttr(group, "transform", `translate(${fixed(w.cx)} ${CENTER_Y})`);
      if (group.getAttribute("data-teeth") === String(w.teeth)) continue;
      setAttr(group, "data-teeth", String(w.teeth));
      const tip = w.radius + TIP;
      const hand = handLength(w.radius);
      const q = <T extends Element>(selector: string): T => group.querySelector<T>(selector)!;
      setAttr(q(".tdg-gear-body"), "d", gearPath(w.teeth));
      setAttr(
        q(".tdg-gear-tick"),
        "d",
        `M-5 ${fixed(-tip - 12)} L5 ${fixed(-tip - 12)} L0 ${fixed(-tip - 3)} Z`,
      );
      setAttr(q(".tdg-gear-hand"), "y2", fixed(-hand));
      setAttr(q(".tdg-gear-hand"), "stroke-width", w.radius < 20 ? "3" : "4");
      setAttr(q(".tdg-gear-hand-tip"), "cy", fixed(-hand));
      setAttr(q(".tdg-gear-hand-tip"), "r", w.radius < 20 ? "3" : "5");
      setAttr(q(".tdg-gear-hub"), "r", fixed(Math.min(8, 0.3 * w.radius)));
    }
    this.live.querySelectorAll<SVGGElement>(".tdg-gear-idler").forEach((idler, i) => {
      const pair = pairs[i]!;
      if (pair.idler) idler.removeAttribute("display");
      else setAttr(idler, "display", "none");
      setAttr(idler, "transform", `translate(${fixed(pair.contact)} ${CENTER_Y})`);
    });
    const shaft = this.live.querySelector(".tdg-gear-shaft");
    if (shaft) {
      setAttr(shaft, "x1", fixed(pairs[0].driven.cx));
      setAttr(shaft, "x2", fixed(pairs[1].driver.cx));
    }
    this.live.querySelectorAll<SVGGElement>(".tdg-gear-ratio").forEach((badge, i) => {
      const pair = pairs[i]!;
      setAttr(badge, "transform", `translate(${fixed(pair.contact)} ${CENTER_Y})`);
      const scale = badge.querySelector<SVGTextElement>(".tdg-gear-scale")!;
      setText(scale, pair.toScale ? "" : this.notToScale);
      // Centred under the pair, but inside the figure: a long translation ("suurused pole mõõtkavas"
      // at a phone's larger type) would run off its right edge.
      const half = pair.toScale ? 0 : scale.getComputedTextLength() / 2;
      const shift = Math.min(0, FIGURE_WIDTH - EDGE - (pair.contact + half));
      setAttr(scale, "x", fixed(Math.max(shift, EDGE - (pair.contact - half))));
    });
  }

  /** Where each hand is going (`data-angle`, degrees): its value's angle; the u shaft's two wheels alike. */
  aim(angles: Turns): void {
    for (const g of WHEELS) setAttr(this.parts[g].rotor, "data-angle", String(angles[g === "u2" ? "u" : g]));
  }

  /** Each hand at its value's angle (`shown`), each gear's teeth meshed with its driver's. */
  draw(shown: Turns): void {
    const at = bodies(this.pairs, shown);
    const rotate = (element: Element, a: number): void =>
      setAttr(element, "transform", `rotate(${Number(a.toFixed(3))})`);
    for (const g of WHEELS) {
      rotate(this.parts[g].rotor, shown[g === "u2" ? "u" : g]);
      rotate(this.parts[g].teeth, at[g]);
    }
    this.live.querySelectorAll(".tdg-gear-idler .tdg-gear-teeth").forEach((t, i) => {
      rotate(t, at.idlers[i]!);
    });
  }
}
