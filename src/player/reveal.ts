// The player takes the static figure's place. It is taller than the figure, so whatever follows the
// sandbox moves down: out of sight (the sandbox wakes a screen ahead) that costs nothing. When a
// slow wake finishes with the sandbox in view, the sandbox keeps the figure's height, its player
// clipped, until the reader acts (clicks, types, tabs: a shift right after input is expected), moves
// the pointer onto it, or it leaves the view; then it takes its full height. Text the reader is
// reading never jumps by itself, and the controls are one gesture away.
// A link to a moment scrolls to the sandbox anyway: no hold then.

const RELEASE_EVENTS = ["pointerdown", "keydown", "focusin"] as const;

export function reveal(root: HTMLElement, player: HTMLElement, hold = true): void {
  const before = root.getBoundingClientRect();
  root.dataset.player = "ready";
  player.removeAttribute("aria-hidden");
  const inView = before.bottom > 0 && before.top < window.innerHeight;
  if (!hold || !inView || typeof IntersectionObserver === "undefined") return;
  if (root.getBoundingClientRect().height <= before.height + 1) return;
  root.style.height = `${before.height}px`;
  root.style.overflow = "hidden";
  root.dataset.held = "";
  let seen = false;
  const observer = new IntersectionObserver(([entry]) => {
    if (entry && !entry.isIntersecting && seen) release();
    seen = true;
  });
  const release = (): void => {
    observer.disconnect();
    for (const type of RELEASE_EVENTS) document.removeEventListener(type, release, true);
    root.removeEventListener("pointerover", release);
    root.style.height = "";
    root.style.overflow = "";
    delete root.dataset.held;
  };
  observer.observe(root);
  for (const type of RELEASE_EVENTS) document.addEventListener(type, release, true);
  root.addEventListener("pointerover", release);
}
