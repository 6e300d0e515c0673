// Entry point of the build-time widgets (the knob, the gears), bundled by the site plugin into
// assets/tinydag/widgets.js and loaded only by pages that have a widget. Each figure.tdg-widget sleeps
// behind its static figure and wakes (mounts its live version from the JSON the build embedded) when
// it comes near the viewport, when the reader focuses into it, or when a link names it (#<id>).

import { named } from "../player/page/address";
import { keepFocusClearOfHeader, keepTopButtonOffControls } from "../player/page/toplink";
import * as gears from "./gears";
import * as knob from "./knob";

type Mount = (root: HTMLElement, data: never, strings: Record<string, string>) => void;

/** One mount function per widget kind (the kind is the fence's name: ```tinydag-<kind>). */
export const MOUNTERS: Record<string, Mount> = { knob: knob.mount, gears: gears.mount };

const WAKE_MARGIN = "100% 0px 100% 0px"; // about a screen ahead: drawn before it scrolls into view

interface Payload {
  kind: string;
  lang: string;
  data: never;
  strings: Record<string, string>;
}

function wake(root: HTMLElement): void {
  if (root.dataset.live) return;
  root.dataset.live = "mounting";
  try {
    const payload = JSON.parse(root.querySelector(".tdg-widget-data")?.textContent ?? "null") as Payload;
    const mount = MOUNTERS[payload.kind];
    if (!mount) throw new Error(`no mounter for widget kind ${payload.kind}`);
    mount(root, payload.data, payload.strings);
    root.dataset.live = "ready"; // widgets.css hides the static figure now
  } catch (error) {
    root.dataset.live = "failed"; // the static figure stays
    console.error("tinydag widget:", error);
  }
}

function start(): void {
  const roots = [...document.querySelectorAll<HTMLElement>("figure.tdg-widget")];
  keepTopButtonOffControls(roots, "data-under-widget");
  keepFocusClearOfHeader(roots);
  if (typeof IntersectionObserver === "undefined") {
    for (const root of roots) wake(root);
    return;
  }
  const nearby = new IntersectionObserver(
    (entries) => {
      for (const entry of entries)
        if (entry.isIntersecting) {
          nearby.unobserve(entry.target);
          wake(entry.target as HTMLElement);
        }
    },
    { rootMargin: WAKE_MARGIN },
  );
  for (const root of roots) {
    if (named(root)) wake(root);
    else {
      nearby.observe(root);
      root.addEventListener("focusin", () => wake(root), { once: true });
    }
  }
  window.addEventListener("hashchange", () => {
    for (const root of roots) if (named(root)) wake(root);
  });
}

// Like the player: start in a task of its own once the page is complete.
if (document.readyState === "complete") start();
else window.addEventListener("load", () => setTimeout(start, 0), { once: true });
