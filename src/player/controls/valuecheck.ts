// A variable's number field committed with text the sandbox cannot take (wiring.ts has put the value
// before it back): the reason, under the field, written by the engine's bundle (engine.ts). A value the
// sandbox takes, or a slider's drag, takes the words away (sliders.ts showValue).

import { MAX_MAGNITUDE } from "../page/url";
import { h, setText } from "../shared/dom";
import { excerptOf, type I18n } from "../shared/i18n";
import { parseNumber, proseNumber } from "../model/format";
import { eitherWay, readNumber } from "../model/verdict";
import type { Slider } from "./sliders";
import { fieldText } from "../../widgets/fields";

/**
 * Walkthrough 28: "1e400" typed in a's field became "1e+40" with no word, and "abc" was put back without
 * one. `text`: what was typed; `value`: the value the variable has again.
 */
export function refuseValue(slider: Slider, text: string, value: number, i18n: I18n): void {
  const shown = text.trim();
  // An emptied field: its value back says enough. A field changed again while the engine came: these
  // words are about what it no longer holds.
  if (shown === "" || slider.number.value !== fieldText(value, i18n.lang)) return;
  const words = refusal(slider.name, shown, value, i18n, MAX_MAGNITUDE);
  const id = `${slider.range.id}-refused`;
  const message = h("p", { class: "tdg-error", id, role: "status" });
  slider.number.after(message);
  slider.number.setAttribute("aria-describedby", id);
  // Filled a frame after it joins the page: a live region's change is announced, its arrival often not.
  requestAnimationFrame(() => setText(message, words));
}

/**
 * Why `text` is not taken for `name`, which stays `value` (page 00's gears say it too). An English
 * "2,718": 2.718 or 2718? (walkthrough 31). Else, where there is a `limit`, a number beyond it: one read
 * as a prediction is ("2,000,000", "1/1e-7"), or one too large for a float ("1e400"). Else no number.
 */
export function refusal(name: string, text: string, value: number, i18n: I18n, limit?: number): string {
  const say = (x: number): string => exactly(x, i18n.lang);
  const either = eitherWay(text, i18n.lang);
  const number = !Number.isNaN(readNumber(text, i18n.lang)) || !Number.isNaN(parseNumber(text));
  const key = either ? "value_either" : number && limit ? "value_too_large" : "value_not_a_number";
  return i18n.t(key, {
    name,
    text: excerptOf(text),
    value: say(value),
    limit: limit ? say(limit) : "",
    point: either?.[0] ?? "",
    whole: either?.[1] ?? "",
  });
}

/**
 * Why `text`, a number outside `low` … `high`, gave `name` the value `value`, the range's end, or left it
 * at `value` (`kept`; page 00's gears and knob: walk 33, x = 99 became 3 and h = 0 stayed 0.5 without a
 * word). The text typed is echoed with the minus the fields write (walk 34: "-5" beside "−1").
 */
export function outside(
  name: string,
  text: string,
  value: number,
  [low, high]: readonly [number, number],
  i18n: I18n,
  kept = false,
): string {
  const say = (x: number): string => exactly(x, i18n.lang);
  return i18n.t(kept ? "value_outside_kept" : "value_outside", {
    name,
    text: excerptOf(text.replace(/-/g, "\u2212")),
    value: say(value),
    low: say(low),
    high: say(high),
  });
}

/**
 * `x` with every digit the field beside the words writes, the language's way: "a stays 999,999" beside
 * 999999, not the cards' 4 significant digits (walkthrough 31: "a stays 1,000,000").
 */
function exactly(x: number, lang: string): string {
  return proseNumber(x, lang, exactDigits(x));
}

/** The fewest significant digits that give `x` back (up to 17: every double's). */
export function exactDigits(x: number): number {
  let digits = 1;
  while (digits < 17 && Number(x.toPrecision(digits)) !== x) digits++;
  return digits;
}
