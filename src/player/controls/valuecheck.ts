// A variable's number field, committed (its change: Enter, Tab, a tap elsewhere), judged by the engine's
// bundle (engine.ts): a value the sandbox cannot take gets its words under the field and the field its
// value back; a value it took gets a slider that fits it again. While the reader types, only readable
// numbers within reach are applied (wiring.ts).

import { MAX_MAGNITUDE } from "../page/url";
import { h, setText } from "../shared/dom";
import type { I18n } from "../shared/i18n";
import { parseNumber, proseNumber } from "../model/format";
import { sliderRange } from "../model/model";
import { type Slider, showValue } from "./sliders";

/**
 * Walkthrough 28: "1e400" typed in a's field became "1e+40" with no word (its prefix "1e40" had been
 * applied, beyond what an address keeps), and the slider kept a range of ±2e40 ever after; "abc" was put
 * back without one. `value`: the variable's value now.
 */
export function checkValue(slider: Slider, value: number | undefined, i18n: I18n): void {
  const row = slider.number.parentElement!;
  const text = slider.number.value.trim();
  const typed = parseNumber(text);
  let words: string | null = null;
  if (Math.abs(typed) <= MAX_MAGNITUDE) {
    // Typed up to a large number and back down: the slider's range follows (it only ever widened).
    const fits = sliderRange(typed);
    if (Number(slider.range.max) > 10 * fits.max) {
      slider.range.min = String(fits.min);
      slider.range.max = String(fits.max);
      slider.range.step = String(fits.step);
      slider.range.value = String(typed);
    }
  } else if (value !== undefined) {
    const say = (x: number): string => proseNumber(x, i18n.lang);
    const params = { name: slider.name, text, value: say(value), limit: say(MAX_MAGNITUDE) };
    if (text !== "") words = i18n.t(Number.isNaN(typed) ? "value_not_a_number" : "value_too_large", params);
    showValue(slider, value); // the value it keeps (an emptied field, too)
  }
  let message = row.querySelector<HTMLElement>(".tdg-error");
  if (words && !message) row.append((message = h("p", { class: "tdg-error", role: "status" })));
  if (words) setText(message!, words);
  else message?.remove();
}
