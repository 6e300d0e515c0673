// Exercise links (a[data-open-in-sandbox], written by the site plugin from the lesson's Markdown): a
// click loads the exercise's setup into its sandbox, waking the sandbox if it sleeps, and scrolls there.
// The link's address is the sandbox's shared moment (url.ts), so a new tab, or a page without
// JavaScript, opens the same setup the ordinary way; here the click goes through the same path as a
// shared link (the address, then `hashchange`), without reloading the page. A link that unfolds a
// panel (`open=predict`, url.ts) lands so that the graph and that panel show together where the window
// holds both: on a phone the fields under the graph, not the expression and sliders above it.

import { WRITE_NOW } from "../page/address";
import { prefersReducedMotion } from "../shared/dom";
import { lazyEngine, loadEngine } from "../engine/load";
import { readerMovedSince } from "../page/reveal";
import { decodeMoment, type Panel } from "../page/url";
import type { Exercise } from "./task";

export const PANELS: Record<Panel, string> = { predict: ".tdg-predict", nudge: ".tdg-nudge" };

export function wireExerciseLinks(doc: Document): void {
  // Each exercise's link names its exercise (`task=`, url.ts TASK_PARAM), as the address does while its
  // words show: a reload right after the link, or the link copied, opens them too (walkthrough 20:
  // without it they came back only once the learner had changed something).
  for (const link of doc.querySelectorAll<HTMLAnchorElement>("a[data-open-in-sandbox]")) {
    const exercise = exerciseOf(link);
    if (exercise) link.setAttribute("href", `${link.getAttribute("href")}&task=${exercise.index}`);
  }
  doc.addEventListener("click", (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const link =
      e.target instanceof Element ? e.target.closest<HTMLAnchorElement>("a[data-open-in-sandbox]") : null;
    const root = link ? doc.getElementById(link.dataset.openInSandbox ?? "") : null;
    const hash = link ? new URL(link.href, location.href).hash : "";
    if (!root || !hash) return;
    e.preventDefault();
    // A key's click: no clicks counted (WebKit), or no pointer (Chromium, Firefox: its detail is 1).
    const keys = e.detail === 0 || (e as Partial<PointerEvent>).pointerType === "";
    openInSandbox(root, hash, exerciseOf(link!), keys ? "keys" : "pointer");
  });
  // An address that names an exercise (`task=2`: the sandbox's third link, as the language links carry
  // it, translations.ts) opens it as its link does, with the moment the address holds: a learner who
  // switches language mid-exercise finds its words beside the control, in the new language.
  const named = exerciseInAddress(doc);
  if (named) openInSandbox(named.root, location.hash, named.exercise, "address");
  // Back or Forward to an exercise's address: its setup comes with the hashchange, its words here, the
  // page left where the browser puts it (review 53: the prediction fields folded, no words beside them).
  window.addEventListener("popstate", () => {
    const back = exerciseInAddress(doc);
    const reduced = prefersReducedMotion();
    if (back)
      void loadEngine().then(
        () => lazyEngine.showTask(back.root, back.exercise, reduced),
        () => undefined,
      );
  });
}

/** The sandbox and the exercise the address names, if it names one. */
function exerciseInAddress(doc: Document): { root: HTMLElement; exercise: Exercise } | null {
  for (const root of doc.querySelectorAll<HTMLElement>("[data-sandbox]")) {
    const task = decodeMoment(location.hash, root.id)?.task;
    const link = task === undefined ? undefined : linksOf(root)[task];
    const exercise = link ? exerciseOf(link) : null;
    if (exercise) return { root, exercise };
  }
  return null;
}

/** The links that open a sandbox, in page order (the same order in every language). */
function linksOf(root: HTMLElement): HTMLAnchorElement[] {
  return [...root.ownerDocument.querySelectorAll<HTMLAnchorElement>("a[data-open-in-sandbox]")].filter(
    (a) => a.dataset.openInSandbox === root.id,
  );
}

/**
 * The exercise a link opens: the paragraph before the link's own, when it is one (it starts with the
 * exercise's bold title, "**(b) A dead ReLU.** Take …", in every language); null for other links.
 */
function exerciseOf(link: HTMLAnchorElement): Exercise | null {
  const text = link.closest("p")?.previousElementSibling;
  const root = link.ownerDocument.getElementById(link.dataset.openInSandbox ?? "");
  if (!(text instanceof HTMLParagraphElement) || text.firstChild?.nodeName !== "STRONG" || !root) return null;
  return { text, link, index: linksOf(root).indexOf(link) };
}

/** How the reader asked for the exercise: with a pointer, a key on its link, or an address opened. */
type Asked = "pointer" | "keys" | "address";

function openInSandbox(root: HTMLElement, hash: string, exercise: Exercise | null, asked: Asked): void {
  // A change the address has not caught up with yet (it is written a moment after) is there first: the
  // link's own address, still there, would otherwise bring nothing back (the setup not restored).
  root.dispatchEvent(new Event(WRITE_NOW));
  if (location.hash !== hash) history.pushState(history.state, "", hash);
  const since = performance.now();
  const apply = (): boolean => window.dispatchEvent(new HashChangeEvent("hashchange"));
  const reduced = prefersReducedMotion();
  // An exercise's setup is computed by the engine: it loads from now on, beside the waking.
  const engine = loadEngine().catch(() => undefined);
  apply(); // a sleeping sandbox wakes on it (main.ts) and reads the moment as it mounts
  // The strip and the landing come with the on-demand bundle (landing.ts open), once the player is
  // drawn with the setup (its height differs from the static figure's); without the bundle, no strip
  // (the sandbox says why), and the sandbox's top under the header. A reader who scrolled, clicked or
  // typed while a slow sandbox woke has moved on: not pulled back.
  const ring = asked === "address" ? undefined : asked === "keys";
  const moved = (): boolean => readerMovedSince(since);
  void engine.then((loaded) => {
    if (loaded) loaded.open(root, apply, reduced, exercise, ring, moved);
    else if (!moved()) root.scrollIntoView();
  });
}
