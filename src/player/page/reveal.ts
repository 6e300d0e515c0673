// The player takes the static figure's place. It is taller than the figure, so whatever follows the
// sandbox moves down: out of sight (the sandbox wakes a screen ahead) that costs nothing, and after
// the reader's own jump to it (a link, the table of contents, a key) it is the answer to what they
// did; after a jump past it, to a place below, the page scrolls by the growth (keepBelowInPlace).
// Only when a slow wake finishes while the reader is scrolling through the sandbox's neighbourhood
// would text they are reading jump by itself. Then the sandbox is held: the static figure (a whole
// picture of the graph, not a cut-off player) stays until the reader reaches for it (points at it,
// clicks, taps, types, tabs) or it leaves the view; then the live player takes its place. A sandbox
// already above the window is held until the reader stops scrolling.

const RELEASE_EVENTS = ["pointerdown", "keydown", "focusin"] as const;
const SCROLL_KEYS = new Set(["PageDown", "PageUp", " ", "ArrowDown", "ArrowUp", "Home", "End"]);
const QUIET_MS = 400; // no wheel, touch or key scroll for this long: the reader has stopped

let lastScroll = -Infinity; // the reader's last scroll: wheel, touch, or a scrolling key
let lastAct = -Infinity; // their last click, tap or other key
let watching = false;

/** Start noting the reader's scrolls and acts (once per page, before any sandbox wakes). */
export function watchReader(): void {
  if (watching || typeof window === "undefined") return;
  watching = true;
  const scrolled = (): void => {
    lastScroll = performance.now();
  };
  const acted = (): void => {
    lastAct = performance.now();
  };
  addEventListener("wheel", scrolled, { passive: true, capture: true });
  addEventListener("touchmove", scrolled, { passive: true, capture: true });
  addEventListener("pointerdown", acted, { passive: true, capture: true });
  addEventListener("keydown", (e) => (SCROLL_KEYS.has(e.key) ? scrolled() : acted()), {
    passive: true,
    capture: true,
  });
}

/**
 * Whether the reader has scrolled, clicked, tapped or typed since `time` (performance.now()): a scroll
 * the page meant to make for them since (a link's landing, a shared moment's) would pull them back.
 */
export function readerMovedSince(time: number): boolean {
  return Math.max(lastScroll, lastAct) > time;
}

/** Reading their way down: the reader's last gesture was a scroll, not a jump they asked for. */
function readerScrolling(): boolean {
  return lastScroll > lastAct;
}

/**
 * The reader wheels down past a sandbox that starts above the window's top, or has jumped past it (the
 * table of contents, a link to a heading below it), and it changes height as its player replaces the
 * figure: scroll by as much, in the same frame, so the text they are reading below it stays put (no
 * browser's scroll anchoring makes up for this growth: xwalk 37, "Try it yourself" pushed 840 px down,
 * under the fold). A sandbox the window shows part of grows where the reader sees it, and one a link
 * names (`past` false) is where the page is going next: nothing scrolls (an instant scroll would cut
 * the link's smooth glide short).
 */
function keepBelowInPlace(root: HTMLElement, before: DOMRect, past?: boolean): void {
  const grown = root.getBoundingClientRect().height - before.height;
  if (before.top < 0 && (readerScrolling() || (past && before.bottom <= 0)) && Math.abs(grown) > 0.5)
    scrollBy({ top: grown, behavior: "instant" });
}

export function reveal(root: HTMLElement, player: HTMLElement, hold = true): void {
  const before = root.getBoundingClientRect();
  // In view, or within a screen below it: a wheel or fling already in flight (scrolled off the main
  // thread) can bring it into view before the next frame, and the text after it would jump.
  const inView = before.bottom > 0 && before.top < 2 * innerHeight;
  // Wholly above the window: the text below stays put by a scroll as large as the growth, which a
  // wheel scroll still in flight on the compositor can race (a frame drawn with the text moved).
  // Held too, until the reader has stopped scrolling.
  const above = before.bottom <= 0;
  root.dataset.player = "ready";
  const held =
    hold && (inView || above) && readerScrolling() && root.getBoundingClientRect().height > before.height + 1; // ready: the player's height, not the figure's
  if (!held) {
    keepBelowInPlace(root, before, hold);
    player.removeAttribute("aria-hidden");
    return;
  }
  root.style.height = `${before.height}px`;
  root.style.overflow = "hidden";
  root.dataset.held = ""; // player.css: the whole figure stays on top of the waiting player
  let seen = false;
  // Scrolled out of view: below the window, its growth moves nothing in view; above it, the page takes
  // the new height once the reader has stopped scrolling, as a sandbox held above does (the scroll that
  // makes up for the growth would race a wheel still in flight, keepBelowInPlace).
  const aboveNow = (): boolean => root.getBoundingClientRect().bottom <= 0;
  const observer = new IntersectionObserver(([entry]) => {
    if (entry && !entry.isIntersecting && seen) {
      if (!aboveNow()) release(true);
      else whenQuiet(() => root.dataset.held !== undefined && aboveNow() && release(true));
    }
    seen = true;
  });
  const reached = (): void => release(false); // the reader reached for it: the page may follow
  const release = (scrolledPast: boolean): void => {
    observer.disconnect();
    for (const type of RELEASE_EVENTS) document.removeEventListener(type, reached, true);
    root.removeEventListener("pointerover", reached);
    const heldAt = root.getBoundingClientRect();
    root.style.height = "";
    root.style.overflow = "";
    if (scrolledPast) keepBelowInPlace(root, heldAt);
    delete root.dataset.held;
    player.removeAttribute("aria-hidden");
  };
  observer.observe(root);
  for (const type of RELEASE_EVENTS) document.addEventListener(type, reached, true);
  root.addEventListener("pointerover", reached);
  // Still held and still above when the reader rests: the page takes its new height then. Scrolled back
  // into view, it waits for the reader like any held sandbox.
  if (above) whenQuiet(() => root.dataset.held !== undefined && aboveNow() && release(true));
}

/** Run `then` once the reader has not scrolled for QUIET_MS. */
function whenQuiet(then: () => void): void {
  const wait = lastScroll + QUIET_MS - performance.now();
  if (wait <= 0) then();
  else setTimeout(() => whenQuiet(then), wait);
}
