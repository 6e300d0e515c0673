// A learner who switches language mid-exercise keeps their graph: the theme's language links carry
// the sandbox moment the address names (#tinydag-1?expr=…) to the same page in the other language,
// where the sandboxes have the same ids. Set when a link is about to be followed (pointer down, focus,
// click), so the link always carries the moment of that instant. A plain section anchor is not
// carried: headings have other slugs in other languages. What the learner has typed into the named
// sandbox's prediction fields goes along (`predict.a=…`, url.ts), each number as the other language
// reads it: "1,000" typed on the English page (a thousand) arrives on the Russian one as 1000.

import { readPrediction } from "../model/verdict";
import { FIELD_NAME } from "../teaching/predict";
import { fieldText } from "../../widgets/fields";
import { named } from "./address";
import { MAX_PREDICTION, PREDICTION_PARAM } from "./url";

const LANGUAGE_LINKS = "a.md-select__link[hreflang]";
const SANDBOXES = "[data-sandbox], [data-sandbox-compact]";

export function carryMomentToTranslations(doc: Document): void {
  const carry = (event: Event): void => {
    const link = event.target instanceof Element ? event.target.closest(LANGUAGE_LINKS) : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    const sandboxes = [...doc.querySelectorAll<HTMLElement>(SANDBOXES)];
    const from = doc.documentElement.lang;
    const fields = sandboxes.find(named)?.querySelectorAll<HTMLInputElement>(`input[name^="${FIELD_NAME}"]`);
    const typed = [...(fields ?? [])].map((f) => ({ leaf: f.name.slice(FIELD_NAME.length), text: f.value }));
    const moment = sandboxes.some(named) ? withPredictions(location.hash, typed, from, link.hreflang) : "";
    const url = new URL(link.href);
    if (url.hash === moment) return;
    url.hash = moment;
    link.href = url.href;
  };
  for (const type of ["pointerdown", "focusin", "click"]) doc.addEventListener(type, carry, true);
}

/**
 * The address (a page in language `from`) with the predictions typed in its sandbox's fields, as a page in
 * language `to` reads them, in place of any it carried before.
 */
export function withPredictions(
  hash: string,
  typed: readonly { leaf: string; text: string }[],
  from: string,
  to: string,
): string {
  const kept = hash.split("&").filter((part) => !part.startsWith(PREDICTION_PARAM));
  const params = new URLSearchParams();
  for (const { leaf, text } of typed)
    if (text.trim()) params.set(PREDICTION_PARAM + leaf, asReadIn(text.trim(), from, to));
  const added = params.toString().replaceAll("+", "%20"); // a space as url.ts reads it
  return [...kept, ...(added ? [added] : [])].join("&");
}

/** A prediction as the other language reads it to the same number (else as typed). */
function asReadIn(text: string, from: string, to: string): string {
  const before = readPrediction(text, from);
  const after = readPrediction(text, to);
  if (!before.ok || (after.ok && after.value === before.value)) return text.slice(0, MAX_PREDICTION);
  return fieldText(before.value, to);
}
