// Exercise links (a[data-open-in-sandbox], written by the site plugin from the lesson's Markdown): a
// click loads the exercise's setup into its sandbox, waking the sandbox if it sleeps, and scrolls there.
// The link's address is the sandbox's shared moment (url.ts), so a new tab, or a page without
// JavaScript, opens the same setup the ordinary way; here the click goes through the same path as a
// shared link (the address, then `hashchange`), without reloading the page.

const READY_TIMEOUT_MS = 10_000;

export function wireExerciseLinks(doc: Document): void {
  doc.addEventListener("click", (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const link = e.target instanceof Element ? e.target.closest<HTMLAnchorElement>("a[data-open-in-sandbox]") : null;
    const root = link ? doc.getElementById(link.dataset.openInSandbox ?? "") : null;
    const hash = link ? new URL(link.href, location.href).hash : "";
    if (!root || !hash) return;
    e.preventDefault();
    openInSandbox(root, hash);
  });
}

function openInSandbox(root: HTMLElement, hash: string): void {
  if (location.hash !== hash) history.pushState(history.state, "", hash);
  const apply = (): boolean => window.dispatchEvent(new HashChangeEvent("hashchange"));
  const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
  apply(); // a sleeping sandbox wakes on it (main.ts) and reads the moment as it mounts
  // Scrolled once the player is drawn: its height differs from the static figure's.
  whenReady(root, () => {
    apply(); // a sandbox that was mounting may have read the address before it changed
    root.scrollIntoView({ block: "start", behavior: reduced ? "auto" : "smooth" });
    root.querySelector<HTMLElement>(".tdg-stage")?.focus({ preventScroll: true });
  });
}

/** Run `then` once the sandbox's player is ready (at once if it is); never if it gives up. */
function whenReady(root: HTMLElement, then: () => void): void {
  if (root.dataset.player === "ready") return then();
  const observer = new MutationObserver(() => {
    if (root.dataset.player === "mounting" || !root.dataset.player) return;
    observer.disconnect();
    window.clearTimeout(timer);
    if (root.dataset.player === "ready") then();
  });
  const timer = window.setTimeout(() => observer.disconnect(), READY_TIMEOUT_MS);
  observer.observe(root, { attributes: true, attributeFilter: ["data-player"] });
}
