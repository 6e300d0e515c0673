// The variables' sliders: a range and a number field per variable, kept across changes of the
// graph so that a drag, a key press or the focus on them is never lost.

import { h, uid } from "../shared/dom";
import type { I18n } from "../shared/i18n";
import { sliderRange } from "../model/model";
import { fieldText } from "../../widgets/fields";

export interface Slider {
  name: string;
  range: HTMLInputElement;
  number: HTMLInputElement;
  lang: string; // the page's, as its number field writes numbers (showValue)
}

/**
 * One range + number field per variable (input[type=range][name=var-X]), reconciled with the rows
 * already there: a variable that stays keeps its elements, so a drag, a key press or the focus on
 * them survives any change of the graph. The focused row is never moved (moving would blur it).
 */
export function syncSliderList(
  container: HTMLElement,
  i18n: I18n,
  current: readonly Slider[],
  variables: readonly { name: string; value: number }[],
): Slider[] {
  const names = variables.map((v) => v.name);
  if (names.join(",") === current.map((s) => s.name).join(",")) return [...current];
  const kept = new Map(current.filter((s) => names.includes(s.name)).map((s) => [s.name, s]));
  for (const slider of current) if (!kept.has(slider.name)) rowOf(slider).remove();
  const sliders = variables.map(({ name, value }) => kept.get(name) ?? buildSlider(i18n, name, value));
  const active = container.ownerDocument.activeElement;
  const anchor = sliders.findIndex((s) => rowOf(s).contains(active));
  if (anchor < 0) {
    container.append(...sliders.map(rowOf));
    return sliders;
  }
  const fixed = rowOf(sliders[anchor]!);
  for (const slider of sliders.slice(0, anchor)) container.insertBefore(rowOf(slider), fixed);
  let after = fixed.nextSibling;
  for (const slider of sliders.slice(anchor + 1)) {
    const row = rowOf(slider);
    if (row !== after) container.insertBefore(row, after);
    after = row.nextSibling;
  }
  return sliders;
}

function rowOf(slider: Slider): HTMLElement {
  return slider.range.parentElement!;
}

function buildSlider(i18n: I18n, name: string, value: number): Slider {
  const { min, max, step } = sliderRange(value);
  const rangeId = uid("tdg-var");
  const range = h("input", {
    type: "range",
    name: `var-${name}`,
    id: rangeId,
    min,
    max,
    step,
    value: String(value),
    class: "tdg-range",
  });
  // Text, read as the predictions are (wiring.ts): a number field dropped what it could not read ("1/3"
  // became 13, the cards' "−3" became 3: walkthrough 17). Written as page 00's fields are. No decimal
  // keypad (inputmode): an iPhone's has no minus and no "/" (review 59).
  const number = h("input", {
    type: "text",
    name: `num-${name}`,
    value: fieldText(value, i18n.lang), // showValue's
    class: "tdg-number",
    "aria-label": i18n.t("number_field", { name }),
  });
  h(
    "div",
    { class: "tdg-var", "data-var": name },
    h("label", { for: rangeId, class: "tdg-var-name" }, name),
    range,
    number,
  );
  return { name, range, number, lang: i18n.lang };
}

/**
 * A slider's range for `value`: widened to include it with room beyond (walk 41: c = 10 from a link
 * sat at the end of the ±10 an earlier value had left, and the slider could not make c larger), or
 * narrowed again after a large one (review 58: a typed 900000 left ±2,000,000 in whole steps for the
 * 0.5 a preset set next). A drag never calls it: the slider holds the value it was moved to.
 */
export function fitSlider(slider: Slider, value: number): void {
  const fits = sliderRange(value);
  const max = Number(slider.range.max);
  // (min, max and step as numbers: the input's properties write them as text)
  if (value <= Number(slider.range.min) || value >= max || max > 10 * fits.max)
    Object.assign(slider.range, fits);
}

/**
 * A value in a field the learner types into, as the page's language writes it (fields.ts: "−0,2" on
 * the ru and et pages, as on page 00; walkthrough 18 found "-0.2" beside a caption's "−0,2").
 */
export function showValue(slider: Slider, value: number): void {
  slider.number.value = fieldText(value, slider.lang);
  dropRefusal(slider.number);
}

/**
 * The words on a refused value (valuecheck.ts) go, and the field's pointer to them (aria-describedby):
 * a value taken is another, as are a preset's (wiring.ts).
 */
export function dropRefusal(field: HTMLInputElement): void {
  field.nextElementSibling?.remove();
  field.removeAttribute("aria-describedby");
}
