// A learner who switches language mid-exercise keeps their graph: the theme's language links carry
// the sandbox moment the address names (#tinydag-1?expr=…) to the same page in the other language,
// where the sandboxes have the same ids. Set when a link is about to be followed (pointer down, focus,
// click), so the link always carries the moment of that instant; a plain click is followed by the
// player itself, since the theme's switcher would drop the moment on the published site. A plain
// section anchor is not carried: headings have other slugs in other languages. What the learner has
// typed into the named sandbox's prediction fields goes along (`predict.a=…`, url.ts), each number as
// the other language reads it: "1,000" typed on the English page (a thousand) arrives on the Russian
// one as 1000; so does the exercise whose words the sandbox shows (`task=1`, read by url.ts, opened by
// exercises.ts).
import { readPrediction } from "../model/verdict";
import { FIELD_NAME } from "../teaching/predict";
import { fieldText } from "../../widgets/fields";
import { named, WRITE_NOW } from "./address";
import { CHECKED_PARAM, MAX_PREDICTION, PREDICTION_PARAM, replacing } from "./url";

const LANGUAGE_LINKS = "a.md-select__link[hreflang]";
const SANDBOXES = "[data-sandbox], [data-sandbox-compact]";

export function carryMomentToTranslations(doc: Document): void {
  const carry = (event: Event): void => {
    const link = event.target instanceof Element ? event.target.closest(LANGUAGE_LINKS) : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    const sandboxes = [...doc.querySelectorAll<HTMLElement>(SANDBOXES)];
    // Mid-pulse the address names a moment up to a second old, or none if the learner has only played
    // it (walkthrough 12): now it names this one, of the first sandbox they have used.
    for (const sandbox of sandboxes.some(named) ? sandboxes.filter(named) : sandboxes) {
      sandbox.dispatchEvent(new Event(WRITE_NOW));
      if (named(sandbox)) break;
    }
    // The address now names the exercise and the predictions too (share.ts), the predictions as this
    // page reads them: they go as the other page reads them.
    const first = sandboxes.find(named);
    const { typed, checked } = first ? predictionsIn(first) : { typed: [], checked: false };
    const moment = first
      ? withPredictions(location.hash, typed, doc.documentElement.lang, link.hreflang, checked)
      : "";
    const url = new URL(link.href);
    if (url.hash !== moment) {
      url.hash = moment;
      link.href = url.href;
    }
    // On the published site the theme's switcher takes a plain click itself: it finds the page in the
    // sitemap and goes there without the moment (xb11). With a moment to carry, the click is ours.
    if (event instanceof MouseEvent && event.type === "click" && moment && plainClick(event)) {
      event.preventDefault();
      event.stopPropagation();
      window.location.assign(link.href);
    }
  };
  for (const type of ["pointerdown", "focusin", "click"]) doc.addEventListener(type, carry, true);
}

/** A click that follows a link in this tab (not a new tab or window, not a download). */
const plainClick = (e: MouseEvent): boolean =>
  e.button === 0 && !e.defaultPrevented && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

/** What the learner has typed into a sandbox's prediction fields, and whether it has been checked. */
export function predictionsIn(root: HTMLElement): { typed: Prediction[]; checked: boolean } {
  const fields = [...root.querySelectorAll<HTMLInputElement>(`input[name^="${FIELD_NAME}"]`)];
  return {
    typed: fields.map((f) => ({ leaf: f.name.slice(FIELD_NAME.length), text: f.value })),
    checked: fields.some((f) => f.dataset.verdict !== undefined),
  };
}

type Prediction = { leaf: string; text: string };

/**
 * The address (a page in language `from`) with the predictions typed in its sandbox's fields, as a page in
 * language `to` reads them, in place of any it carried before.
 */
export function withPredictions(
  hash: string,
  typed: readonly Prediction[],
  from: string,
  to: string,
  checked = false, // they have their verdicts: the other page judges them again (walkthrough 12)
): string {
  const params = new URLSearchParams();
  for (const { leaf, text } of typed)
    if (text.trim()) params.set(PREDICTION_PARAM + leaf, asReadIn(text.trim(), from, to));
  if (checked && params.toString()) params.set(CHECKED_PARAM, "1");
  const added = params.toString().replaceAll("+", "%20"); // a space as url.ts reads it
  const carried = (part: string): boolean =>
    part.startsWith(PREDICTION_PARAM) || part.startsWith(`${CHECKED_PARAM}=`);
  return replacing(hash, carried, added ? [added] : []);
}

/** A prediction as the other language reads it to the same number (else as typed). */
function asReadIn(text: string, from: string, to: string): string {
  const before = readPrediction(text, from);
  const after = readPrediction(text, to);
  if (!before.ok || (after.ok && after.value === before.value)) return text.slice(0, MAX_PREDICTION);
  return fieldText(before.value, to);
}
