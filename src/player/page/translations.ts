// A learner who switches language mid-exercise keeps their graph: the theme's language links carry
// the sandbox moment the address names (#tinydag-1?expr=…) to the same page in the other language,
// where the sandboxes have the same ids. Set when a link is about to be followed (pointer down, focus,
// click), so the link always carries the moment of that instant. A plain section anchor is not
// carried: headings have other slugs in other languages.

import { named } from "./address";

const LANGUAGE_LINKS = "a.md-select__link[hreflang]";
const SANDBOXES = "[data-sandbox], [data-sandbox-compact]";

export function carryMomentToTranslations(doc: Document): void {
  const carry = (event: Event): void => {
    const link = event.target instanceof Element ? event.target.closest(LANGUAGE_LINKS) : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    const moment = [...doc.querySelectorAll<HTMLElement>(SANDBOXES)].some(named) ? location.hash : "";
    const url = new URL(link.href);
    if (url.hash === moment) return;
    url.hash = moment;
    link.href = url.href;
  };
  for (const type of ["pointerdown", "focusin", "click"]) doc.addEventListener(type, carry, true);
}
