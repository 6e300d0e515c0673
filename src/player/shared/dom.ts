// A tiny element builder. Text always goes in as text nodes (never as HTML), so nothing read from
// the URL, the expression or the strings files can ever run as markup.

type Attrs = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children)
    if (child !== null && child !== undefined && child !== false) el.append(child);
  return el;
}

/** An SVG element with its attributes (the widgets' figures). */
export function svgElement<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
): SVGElementTagNameMap[K] {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

/** Set text only when it changed: cheap to call every frame (a lone text node is edited in place). */
export function setText(el: Element, text: string): void {
  const node = el.firstChild;
  if (node !== null && node === el.lastChild && node.nodeType === Node.TEXT_NODE) {
    if ((node as Text).data !== text) (node as Text).data = text;
  } else if (el.textContent !== text) el.textContent = text;
}

const written = new WeakMap<HTMLElement, Map<string, string>>(); // inline styles as setStyle last wrote them

/**
 * Set an inline style property only when it changed (each write costs a style recalculation). The
 * browser may serialize a value differently from how it was written, so the last text written is kept.
 */
export function setStyle(el: HTMLElement, name: string, value: string): void {
  let last = written.get(el);
  if (!last) written.set(el, (last = new Map()));
  if (last.get(name) === value) return;
  last.set(name, value);
  el.style.setProperty(name, value);
}

/** How far an element's top lies below the site's header (its scroll-margin-top); under it, negative. */
export function belowHeader(el: Element): number {
  return el.getBoundingClientRect().top - (parseFloat(getComputedStyle(el).scrollMarginTop) || 0);
}

export function setAttr(el: Element, name: string, value: string | null): void {
  if (value === null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

let counter = 0;
export function uid(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** Whether the reader asked for less motion (read when asked: the setting may change). */
export const prefersReducedMotion = (): boolean =>
  matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

/** Run `then` once, the first time `share` of the element is in view. */
export function whenSeen(el: Element, share: number, then: () => void): void {
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      then();
    },
    { threshold: share },
  );
  observer.observe(el);
}
