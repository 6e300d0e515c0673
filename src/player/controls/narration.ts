// One sentence per event, in the page's language, for the caption under the stage, the screen-reader
// live region and the scrubber's aria-valuetext: "a + b = 2 + (−3) = −1" (forward),
// "c receives 1 × (−1) = −1; c.grad is now −1" (backward). Sentences are prose, so
// their numbers are written the language's way (proseNumber: "0,5" in ru and et).

import type { Timeline } from "../../inference/types";
import { madeText, sumText, termsAfter } from "../model/arithmetic";
import { sentenceLabel, sentenceName } from "../teaching/expansion";
import { productText, proseNumber } from "../model/format";
import { excerptOf, type I18n } from "../shared/i18n";
import { type Frame, nodesById, type Schedule, type ScheduledEvent } from "../model/timing";

/**
 * `landed`: whether the event's number has reached its card. Until then a backward step says only what
 * its child receives (the number the bubble carries): "c.grad is now −1" waits for the card to say so.
 * `brief`: a sum of more than two terms as its tail ("… + 2 = 1.531"), so the caption's two lines on a
 * phone end with the grad, not in the middle of the sum (walkthrough 18).
 */
export function describeEvent(
  event: ScheduledEvent,
  timeline: Timeline,
  i18n: I18n,
  landed = true,
  brief = false,
): string {
  const nodes = nodesById(timeline);
  // A number typed in the expression is named in brackets, so its grad does not read as a number
  // (walkthrough 24: "0.5.grad is now −1"; now "(0.5).grad is now −1").
  const name = (id: string): string => {
    const n = nodes.get(id);
    if (!n) return id;
    const named = sentenceName(n, timeline);
    return n.op === "const" ? `(${named})` : named;
  };
  const f = (x: number): string => proseNumber(x, i18n.lang);
  if (event.kind === "compute") {
    const node = nodes.get(event.step.node);
    const label = node ? sentenceLabel(node, timeline) : event.step.node;
    const made = (node && madeText(node, timeline, f)) ?? f(event.step.value);
    // Numbers alone ("2 × 3") are already their own values: "2 × 3 = 6", not "2 × 3 = 2 × 3 = 6".
    return i18n.t("narrate_forward", {
      node: label,
      made: made.startsWith(`${label} = `) ? made.slice(label.length + 3) : made,
    });
  }
  if (event.kind === "seed") {
    const root = nodes.get(event.node);
    return i18n.t("narrate_seed", {
      node: root ? sentenceLabel(root, timeline) : event.node,
      grad: f(event.grad),
    });
  }
  const s = event.step;
  const product = productText(s.incoming, s.local, s.contribution, i18n.lang); // "a × b = c", or "≈" where rounding shows
  // A ReLU whose input is not positive passes on nothing: the sentence says why the path dies here
  // (no grad in it, so it is said in flight too), and, past it, why nothing arrives (a learner who
  // drags into a dead ReLU lands on the last step).
  const dead = s.local === 0 && nodes.get(s.parent)?.op === "relu";
  if (!landed && !dead) return i18n.t("narrate_receiving", { child: name(s.child), product });
  // A gradient more than one edge adds to: the sentence says the += and the sum it has built.
  const terms = termsAfter(timeline, s);
  const sum = sumText(terms, f, brief && terms.length > 2);
  if (sum !== null) return i18n.t("narrate_accumulate", { child: name(s.child), product, sum });
  const behind = !dead && s.incoming === 0 && behindDeadRelus(timeline).has(s.parent);
  const key = dead ? "narrate_dead_relu" : behind ? "narrate_behind_dead_relu" : "narrate_backward";
  return i18n.t(key, {
    parent: name(s.parent),
    child: name(s.child),
    product,
    grad: f(s.grad_after),
  });
}

/**
 * The nodes every path from which up to the output passes a ReLU whose input is not positive: the
 * gradient they hand on is 0 because nothing comes back through it. Once per timeline (the caption
 * asks on every frame): the nodes the output reaches without passing on through a dead ReLU are live.
 */
const behindDead = new WeakMap<Timeline, ReadonlySet<string>>();
function behindDeadRelus(timeline: Timeline): ReadonlySet<string> {
  const known = behindDead.get(timeline);
  if (known) return known;
  const byId = nodesById(timeline);
  const dead = new Set(
    timeline.backward.filter((b) => b.local === 0 && byId.get(b.parent)?.op === "relu").map((b) => b.parent),
  );
  const live = new Set<string>();
  const open = [timeline.root];
  for (let id = open.pop(); id !== undefined; id = open.pop()) {
    if (live.has(id)) continue;
    live.add(id);
    if (!dead.has(id)) open.push(...(byId.get(id)?.inputs ?? []));
  }
  const behind = new Set(dead.size ? timeline.nodes.map((n) => n.id).filter((id) => !live.has(id)) : []);
  behindDead.set(timeline, behind);
  return behind;
}

/** The step the counter, the caption and the scrubber name (1-based), its sentence, and the caption's. */
export interface ShownStep {
  step: number;
  event: string;
  brief: string; // describeEvent's `brief`
}

/**
 * The step on screen at `frame`: the one in flight, whose pulse travels to the card that is lit, or
 * else the last landed; null before the first starts. In flight, its sentence claims nothing the card
 * does not show yet (describeEvent's `landed`).
 */
export function shownStep(
  timeline: Timeline,
  schedule: Schedule,
  frame: Frame,
  i18n: I18n,
): ShownStep | null {
  const event = schedule.events[frame.current];
  if (!event) return null;
  const landed = frame.completed > frame.current;
  // A step stays on screen for many frames of the pulse: its words are written once (naming a long
  // operand walks its expression), then read back while the same step, graph and language last.
  // Kept per schedule: the page's two sandboxes, playing together, do not take each other's.
  const last = lastShown.get(schedule);
  if (last?.event === event && last.landed === landed && last.timeline === timeline && last.i18n === i18n)
    return last.shown;
  let brief: string | undefined;
  const shown = {
    step: frame.current + 1,
    event: describeEvent(event, timeline, i18n, landed),
    // Only a phone's caption asks for it (sync.ts), once a step: a slider's drag makes a new step each input.
    get brief(): string {
      return (brief ??= describeEvent(event, timeline, i18n, landed, true));
    },
  };
  lastShown.set(schedule, { event, landed, timeline, i18n, shown });
  return shown;
}

const lastShown = new WeakMap<
  Schedule,
  { event: Schedule["events"][number]; landed: boolean; timeline: Timeline; i18n: I18n; shown: ShownStep }
>();

/**
 * The caption under the stage: the shown step in words, or how the pass begins; while the field holds
 * an error, which graph the dimmed one is (`dimmed`: its expression), not a step of it.
 */
export function captionOf(
  schedule: Schedule,
  shown: ShownStep | null,
  i18n: I18n,
  dimmed: string | null = null,
  brief = false, // the step's brief sentence (describeEvent's `brief`)
  playing = false, // at the pass's start already playing (reduced motion holds it a second): no "press Play"
): string {
  if (dimmed !== null) return i18n.t("caption_dimmed", { expression: excerptOf(dimmed) });
  const total = schedule.duration;
  if (shown)
    return i18n.t("caption_step", { step: shown.step, total, event: brief ? shown.brief : shown.event });
  if (total === 0) return i18n.t("caption_single_leaf"); // a lone variable or number: no operation
  return i18n.t(`caption_${playing ? "playing" : "start"}_${schedule.direction}`, {
    total,
    play: i18n.t("play"),
  });
}
