// UI strings of the page's language (src/player/strings/LANG.yml, embedded by the site plugin).
// Every visible word of the player comes from here; placeholders are {name}.

import type { ErrorPayload } from "../inference/types";

export type Strings = Readonly<Record<string, string>>;

export interface I18n {
  lang: string;
  /** The string for `key` with its {placeholders} filled; the key itself when it is missing. */
  t(key: string, params?: Readonly<Record<string, string | number>>): string;
  has(key: string): boolean;
}

export function makeI18n(lang: string, strings: Strings): I18n {
  return {
    lang,
    has: (key) => Object.prototype.hasOwnProperty.call(strings, key),
    t: (key, params = {}) => fill(strings[key] ?? key, params),
  };
}

export function fill(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

/** The string key for an engine error: one per code, and one per reason where the code has reasons. */
export function errorKey(error: Pick<ErrorPayload, "code" | "params" | "start">): string {
  const code = error.code.replace(/-/g, "_");
  let reason = error.params["reason"];
  // Both engines name too-large's two cases in params.reason ("characters" or "nodes"). Should a
  // payload come without it (an older engine), the span still tells them apart: a length error
  // starts at the limit, a size error at 0.
  if (reason === undefined && error.code === "too-large") reason = error.start ? "characters" : "nodes";
  return reason === undefined ? `error_${code}` : `error_${code}_${reason.replace(/-/g, "_")}`;
}

/** The localized message for an engine error, falling back to the engine's English text. */
export function errorMessage(i18n: I18n, error: Pick<ErrorPayload, "code" | "params" | "start" | "message">): string {
  const key = errorKey(error);
  if (i18n.has(key)) return i18n.t(key, error.params);
  const general = `error_${error.code.replace(/-/g, "_")}`;
  return i18n.has(general) ? i18n.t(general, error.params) : error.message;
}
