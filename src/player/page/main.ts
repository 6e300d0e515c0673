// Entry point of the sandbox player, bundled by the site plugin into assets/tinydag/player.js.
// Each sandbox ([data-sandbox], or a compact [data-sandbox-compact]) sleeps behind its build-time static figure and wakes (mounts its player, reading
// the JSON the build embedded next to it) only when it is needed: when it comes near the viewport,
// when a link names it (#<id>?…), or when the reader focuses into it. A reader who never scrolls
// there pays nothing. Exercise links (exercises.ts) wake the sandbox they open.

import { named } from "./address";
import { wireExerciseLinks } from "../teaching/exercises";
import { watchReader } from "./reveal";
import { Sandbox } from "./sandbox";
import { keepFocusClearOfHeader, keepTopButtonOffControls } from "./toplink";
import { carryMomentToTranslations } from "./translations";

// How far outside the viewport a sandbox starts waking: about a screen ahead, so its player is drawn
// (and has its final height) before it scrolls into view.
const WAKE_MARGIN = "100% 0px 100% 0px";

function mount(root: HTMLElement): void {
  if (root.dataset.player) return; // already mounted (or known to have no WebGL)
  root.dataset.player = "mounting";
  Sandbox.mount(root).then(
    (sandbox) => {
      if (!sandbox && root.dataset.player === "mounting") root.dataset.player = "failed";
    },
    (error: unknown) => {
      root.dataset.player = "failed"; // the static figure stays visible
      root.querySelector(".tdg-player")?.remove();
      console.error("tinydag player:", error);
    },
  );
}

function sleepUntilNeeded(root: HTMLElement, nearby: IntersectionObserver): void {
  if (named(root)) {
    mount(root);
    return;
  }
  root.dataset.wake = "waiting";
  const wake = (): void => {
    nearby.unobserve(root);
    root.removeEventListener("focusin", wake);
    window.removeEventListener("hashchange", onHash);
    delete root.dataset.wake;
    mount(root);
  };
  const onHash = (): void => {
    if (named(root)) wake();
  };
  wakers.set(root, wake);
  nearby.observe(root);
  root.addEventListener("focusin", wake);
  window.addEventListener("hashchange", onHash);
}

const wakers = new WeakMap<Element, () => void>();

function start(): void {
  const nearby = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) if (entry.isIntersecting) wakers.get(entry.target)?.();
    },
    { rootMargin: WAKE_MARGIN },
  );
  const roots = [...document.querySelectorAll<HTMLElement>("[data-sandbox], [data-sandbox-compact]")];
  for (const root of roots) sleepUntilNeeded(root, nearby);
  keepTopButtonOffControls(roots, "data-under-sandbox");
  keepFocusClearOfHeader(roots);
  wireExerciseLinks(document);
  carryMomentToTranslations(document);
}

watchReader(); // from the first moment: is the reader scrolling when a sandbox finishes waking?

// The script loads async and starts in a task of its own once the page is complete: never inside the
// page's DOMContentLoaded task, where the theme's scripts set themselves up (a long task that is
// theirs, and that would otherwise count as the player's).
if (document.readyState === "complete") start();
else window.addEventListener("load", () => setTimeout(start, 0), { once: true }); // on loopback, load shares DOMContentLoaded's task
