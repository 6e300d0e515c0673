// Material's "Back to top" button appears near the top of the window whenever the reader scrolls up,
// over whatever lies there: a sandbox's presets, a widget's fields. While a sandbox or widget crosses
// the band where the button sits, the button itself is marked `mark` and stays hidden (player.css:
// .md-top[data-under-sandbox], widgets.css: [data-under-widget]); each bundle has its own mark, for
// its own roots. A plain attribute selector on the button, not a :has() on the whole document.
// Checked in the scroll event itself, the one where Material shows the button (an IntersectionObserver
// answers a frame later: the button would flash over the controls first), and when a root grows (a
// sandbox's player replaces its smaller static figure without any scrolling).

const SLACK_PX = 8; // the band reaches a little past the button, so nothing meets its shadow

export function keepTopButtonOffControls(roots: readonly HTMLElement[], mark: string): void {
  const button = document.querySelector<HTMLElement>(".md-top");
  if (!button || roots.length === 0) return;
  const check = (): void => {
    const band = button.getBoundingClientRect(); // fixed: its place in the window, shown or not
    const under = roots.some((root) => {
      const box = root.getBoundingClientRect();
      return box.top < band.bottom + SLACK_PX && box.bottom > band.top - SLACK_PX;
    });
    button.toggleAttribute(mark, under);
  };
  addEventListener("scroll", check, { passive: true });
  addEventListener("resize", check);
  const grown = new ResizeObserver(check); // only toggles an attribute: no layout, no loop
  for (const root of roots) grown.observe(root);
  check();
}

/**
 * A control the keyboard reaches inside `roots` never stays under Material's fixed header (walkthrough
 * 16: Shift+Tab left a's slider there, where the browser counts it in view, and the arrow keys changed a
 * out of sight): the page moves down just enough, and only down (a CSS scroll-margin made the browser
 * scroll sideways too, where the page is wider than the window).
 */
export function keepFocusClearOfHeader(roots: readonly HTMLElement[]): void {
  for (const root of roots)
    root.addEventListener("focusin", (e) => {
      const el = e.target;
      if (!(el instanceof HTMLElement) || !el.matches(":focus-visible")) return;
      const past = pastHeader(el);
      if (past < 0) scrollBy(0, past);
    });
}

/** How far `el`'s top lies below Material's fixed header and a little room (negative: under it). */
export function pastHeader(el: Element): number {
  const header = document.querySelector(".md-header")?.getBoundingClientRect().bottom ?? 0;
  return el.getBoundingClientRect().top - header - SLACK_PX;
}
