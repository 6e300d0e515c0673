// Where an exercise's link lands (exercises.ts), in the on-demand bundle (engine.ts): a link's setup
// waits for the engine anyway. Once the sandbox has mounted, the exercise's words join the control they
// use (task.ts), and the page scrolls to the sandbox (and the panel the link unfolds), holds it there
// while content above settles, and gives the stage the focus.

import { decodeMoment, type Panel } from "../page/url";
import { belowHeader } from "../shared/dom";
import { PANELS } from "./exercises";
import { type Exercise, showTask } from "./task";

const READY_TIMEOUT_MS = 10_000; // then it lands at the sandbox as it is
const SMOOTH_SCROLL_MS = 1500; // at least, where `scrollend` is not supported
const STILL_MS = 150; // the page not moved for this long: a glide without `scrollend` has ended
const KEEP_IN_PLACE_MS = 4000;
// The reader's own moves, and Back or Forward (walkthrough 13: Back from (a) was pulled back to the
// sandbox when the panel its link had unfolded folded again).
const READER_MOVES = ["wheel", "touchstart", "keydown", "pointerdown", "popstate"] as const;
const ROOM_UNDER_PANEL = 12; // px between a panel brought into view and the window's bottom
// An exercise link's smooth landing under way (land; arrive leaves it be): its keepInPlace's own token.
let gliding: object | null = null;

/**
 * An exercise's link or address (exercises.ts), the engine here: once the sandbox's player has mounted
 * with the setup (its height differs from the static figure's), or given up (no WebGL), the address is
 * applied again (a sandbox that was mounting may have read it before it changed), the exercise's words
 * show beside the control it uses (task.ts), then, unless the reader has `moved` on while a slow sandbox
 * woke, the page lands there (land).
 */
export function open(
  root: HTMLElement,
  apply: () => void,
  reduced: boolean,
  exercise: Exercise | null,
  ring: boolean | undefined,
  moved: () => boolean,
): void {
  whenSettled(root, (ready) => {
    if (ready) {
      apply();
      showTask(root, exercise, reduced);
    }
    if (!moved()) land(root, ready, reduced, ring);
  });
}

/**
 * Scroll to where the address's moment is shown (landing), keep it there for a moment, and focus the
 * stage for the keys (the arrows turn or pan it), or the panel the link unfolds after Enter on it, once
 * its player is `ready`. `ring`: after Enter on the link, with a focus ring (a keyboard's reader must see
 * where it is); after a click, without one, which read as an error (walkthrough 11); undefined (an
 * address opened: a reload, a language switched, a shared link), without one too (walk 41: Chromium
 * drew it on a freshly loaded page, a heavy frame round the graph after a language switch). A link
 * glides there; an address opened is there at once, as at any anchor: a pulse it names plays on from
 * its first frame, and a glide from the page's top played a step of it out of sight (walk 38: a
 * language switched at step 2 opened at step 3 or later).
 */
function land(root: HTMLElement, ready: boolean, reduced: boolean, ring: boolean | undefined): void {
  const top = go(root, !reduced && ring !== undefined);
  const focus: FocusOptions & { focusVisible?: boolean } = {
    preventScroll: true,
    focusVisible: ring === true,
  };
  // After Enter on the link, the keys start where the exercise does: in the panel it unfolds (its first
  // prediction field, Nudge check's leaf; walkthrough 20: five Tabs from the stage to (a)'s first
  // field). After a click, the stage: a field's focus would bring up a phone's keyboard over the graph.
  const open = decodeMoment(location.hash, root.id)?.open;
  const first = ring && open ? root.querySelector<HTMLElement>(`${PANELS[open]} :is(input, select)`) : null;
  const target = first ?? root.querySelector<HTMLElement>(".tdg-stage");
  if (!ready || !target) return;
  // A field's focus moves the page itself (the stage with it, clear of the header: sandbox.ts,
  // toplink.ts): it is given once the smooth scroll has arrived where it was going, or has ended and had
  // its time (review 54: from where the page still was, they scrolled against it; Firefox's `scrollend`
  // of the link's own focus came first), unless the reader has put the focus elsewhere by then.
  const from = document.activeElement;
  const until = first && !reduced ? performance.now() + SMOOTH_SCROLL_MS : 0; // a field waits
  const give = (): void => {
    const away = Math.abs(window.scrollY - top) >= 2;
    if (until && away && (gliding || performance.now() < until)) requestAnimationFrame(give);
    else if (document.activeElement === from) target.focus(focus);
  };
  give();
}

/**
 * A shared moment's landing (sandbox.ts, once its sandbox has woken): at once, then kept there while
 * content above settles (walkthrough 27: the first screen's player, waking after a phone turned to
 * landscape had landed, grew 110 px and pushed the graph's words under the fold). Not while an
 * exercise link's smooth landing is on its way there: the link that woke the sandbox has landed it
 * already (walk 34: the jump cut that scroll short, 3,007 px in one frame).
 */
export function arrive(root: HTMLElement): void {
  if (!gliding) go(root, false);
}

/** Scroll to the landing and keep the sandbox there while content above settles; the scroll's top. */
function go(root: HTMLElement, smooth: boolean): number {
  const top = landing(root);
  const from = window.scrollY;
  const end = Math.min(top, document.documentElement.scrollHeight - innerHeight); // where it can go
  const glide = smooth && Math.abs(end - from) >= 1; // no scroll, no `scrollend`
  window.scrollTo({ top, behavior: glide ? "smooth" : "auto" });
  keepInPlace(root, root.getBoundingClientRect().top + window.scrollY - top, glide ? from : null);
  return top;
}

/**
 * Run `then` once the smooth scroll begun from `from` has ended: at its `scrollend` (not the end of a
 * scroll from before, the page not moved since or still moving: Playwright's, or the reader's wheel just
 * before the click), or, where a browser has no `scrollend`, once the page has stood still after
 * SMOOTH_SCROLL_MS.
 * Never on a timer alone where it has one (CI: a busy machine drew the glide's first frame after
 * 1.5 s, and the page jumped the rest of the way). Returns what cancels it.
 */
function afterGlide(from: number, then: () => void): () => void {
  let timer = 0;
  let frame = 0;
  const listen = (): void => window.addEventListener("scrollend", ended, { once: true });
  // One that comes while the page still moves is another scroll's, late: the glide's own comes once it
  // stands (two clean-clone runs: one came mid-glide on a busy machine, and the page jumped 3,122 px).
  const ended = (): void => {
    const y = window.scrollY;
    if (y === from) listen();
    else
      frame = requestAnimationFrame(() => {
        frame = requestAnimationFrame(() => (window.scrollY === y ? then() : listen()));
      });
  };
  if (window.onscrollend !== undefined) listen();
  else {
    let last = Number.NaN;
    const still = (): void => {
      if (window.scrollY === last) then();
      else timer = window.setTimeout(still, STILL_MS);
      last = window.scrollY;
    };
    timer = window.setTimeout(still, SMOOTH_SCROLL_MS);
  }
  return () => {
    window.removeEventListener("scrollend", ended);
    window.clearTimeout(timer);
    cancelAnimationFrame(frame);
  };
}

/** The sandbox's graph is held beside its controls while they scroll (a phone turned sideways: stage.css). */
export function held(root: HTMLElement): boolean {
  const stage = root.querySelector(".tdg-stage");
  return !!stage && getComputedStyle(stage).position === "sticky";
}

/**
 * Where the page's scroll goes for the moment the address names: the sandbox's top just under the
 * header, moved on just enough to show Play with the timeline under the graph where the whole graph
 * stays in view (walkthrough 27: after the first screen's link, "press Play" with Play under a
 * desktop's fold). When the address unfolds a panel, to that panel (and the timeline, where it follows
 * it) with at most a third of the graph above the header (on a phone, Nudge check's row under the graph,
 * its controls and the Russian labels between them), none where the answers were checked; where even
 * that leaves the panel below the window, the whole graph with its words, the panel next below
 * (walkthrough 27: a phone turned to landscape cut exercise (a)'s graph and still did not show Check).
 * Checked answers and a nudge made keep the whole graph, Nudge check's row rather than its long result.
 * `open`: the panel, when not the address's (an edit rewrites the address without it).
 */
export function landing(root: HTMLElement, open?: Panel): number {
  const moment = decodeMoment(location.hash, root.id);
  open ??= moment?.open;
  const y = (el: Element, edge: "top" | "bottom"): number =>
    el.getBoundingClientRect()[edge] + window.scrollY;
  const top = belowHeader(root) + window.scrollY;
  // A nudge already made is on the cards (their changes) and in the step's words: the row to nudge
  // again comes into view, not the long result under it (walkthrough 28: after a reload, or a switch of
  // language, a phone's stage top at -35, card a hidden).
  const row = open === "nudge" && moment?.nudge;
  const panel = open ? root.querySelector(row ? ".tdg-nudge-row" : PANELS[open]) : null;
  const stage = root.querySelector(".tdg-stage");
  if (!stage) return top;
  const whole = belowHeader(stage) + window.scrollY; // the stage's top under the header
  // The panel with Play and the timeline when they come after it (walk 23: exercise (a)'s row ended
  // just under a desktop's fold, so scrubbing back after Check meant scrolling away from the graph).
  const transport = root.querySelector(".tdg-transport");
  const bottom = Math.max(panel ? y(panel, "bottom") : 0, transport ? y(transport, "bottom") : 0);
  const shown = bottom + ROOM_UNDER_PANEL - innerHeight;
  // A phone turned sideways holds the graph beside the controls while they scroll (stage.css): the
  // exercise's words (the panel they are in, or under the expression) come to the window's top, or less
  // far where what comes after them fits (walk 42: its words and Play were a screen from the graph).
  const lead = panel ?? root.querySelector(".tdg-task");
  if (held(root)) return Math.max(top, lead ? Math.min(y(lead, "top") - y(root, "top") + top, shown) : top);
  // Checked answers and a nudge made are about the cards: the whole graph stays under the header
  // (walkthrough 26: after a phone's switch of language, a wrong answer's long words pushed its leaf's
  // card under the header; walkthrough 28: a nudge's, 16 px of a desktop's stage).
  const done = moment?.checked || moment?.nudge;
  const above = panel && !done ? stage.getBoundingClientRect().height / 3 : 0; // at most
  return Math.max(top, shown <= whole + above ? shown : whole);
}

/**
 * Content above the sandbox may still change height after the scroll (a player waking on the way
 * replaces its static figure): for a moment, until the reader scrolls, clicks or types, the sandbox is
 * put back where the link promised (its top `at` px from the window's). A smooth scroll, begun from
 * `glideFrom`, is left to finish first.
 */
function keepInPlace(root: HTMLElement, at: number, glideFrom: number | null): void {
  const glide = {};
  if (glideFrom !== null) gliding = glide;
  let released = false;
  let mine = window.scrollY; // where the page was put here last (its own scroll, or scroll anchoring's)
  const correct = (): void => {
    const off = root.getBoundingClientRect().top - at;
    if (!released && gliding !== glide && Math.abs(off) > 2) scrollBy({ top: off, behavior: "auto" });
    mine = window.scrollY;
  };
  const arrived = (): void => {
    if (gliding === glide) gliding = null;
    correct();
  };
  const cancel = glideFrom === null ? null : afterGlide(glideFrom, arrived);
  const resized = new ResizeObserver(correct);
  resized.observe(document.body);
  // Once there, a scroll that takes the sandbox away is the reader's too, one no event above announces
  // (a scroll bar dragged, the CI's test scrolling on: pulled back 4,800 px). Not the corrections here,
  // nor scroll anchoring, which keeps the sandbox where it was, nor content above that moved it without
  // a scroll (the page has not moved: the next correction puts it back).
  const scrolled = (): void => {
    if (gliding === glide || window.scrollY === mine) return;
    if (Math.abs(root.getBoundingClientRect().top - at) > 2) release();
    else mine = window.scrollY;
  };
  addEventListener("scroll", scrolled, { passive: true });
  const release = (): void => {
    released = true;
    if (gliding === glide) gliding = null;
    resized.disconnect();
    cancel?.();
    removeEventListener("scroll", scrolled);
    for (const type of READER_MOVES) window.removeEventListener(type, release, true);
  };
  // In the capture phase: the stage keeps its keys from the site's shortcuts (wiring.ts), not from here
  // (review 54: Space on the stage scrolled, and a resize pulled the page back).
  for (const type of READER_MOVES)
    window.addEventListener(type, release, { once: true, passive: true, capture: true });
  window.setTimeout(release, KEEP_IN_PLACE_MS);
}

/** Run `then` once the sandbox's player has mounted (ready: true) or given up (false); at once if either. */
function whenSettled(root: HTMLElement, then: (ready: boolean) => void): void {
  const settled = (): boolean => Boolean(root.dataset.player) && root.dataset.player !== "mounting";
  if (settled()) {
    then(root.dataset.player === "ready");
    return;
  }
  const finish = (): void => {
    observer.disconnect();
    clearTimeout(timer);
    then(root.dataset.player === "ready");
  };
  const observer = new MutationObserver(() => {
    if (settled()) finish();
  });
  const timer = setTimeout(finish, READY_TIMEOUT_MS);
  observer.observe(root, { attributes: true, attributeFilter: ["data-player"] });
}
