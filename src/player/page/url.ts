// The shareable moment: `#<sandbox id>?expr=…&vals=a:2,b:-3&dir=backward&t=3.5&local=1&final=1`, with
// `play=1` while its pulse plays (written mid-pulse: it plays on from there) and `nudge=c:0.001` while
// Nudge check's answer shows (asked again on arrival). An exercise's link adds `open=predict` (or
// `nudge`), the panel it unfolds, and `task=2`, the exercise whose words the sandbox shows (its link's
// place among the sandbox's links, the same in every language: tests/test_site.py), which exercises.ts
// opens; while those words show, the player writes both again (withTask). The language links carry
// `predict.a=…` too, what the learner had typed into a's prediction field (translations.ts), read here
// and never written by the player.
// Everything read here is untrusted: numbers must parse as finite numbers, names must be single
// letters, and the expression is only ever put into an input's value and run through the parser.

import { NUMBER_PATTERN } from "../../inference/parse";
import type { Direction } from "../model/timing";

export interface SharedMoment {
  expression?: string;
  values: Record<string, number>;
  direction?: Direction;
  time?: number;
  localDerivatives?: boolean;
  finalGradients?: boolean;
  playing?: boolean; // the pulse was playing: it plays on from there (a reload, a language switched)
  nudge?: { leaf: string; h: number }; // Nudge check's last answer, asked again (walkthrough 19)
  open?: Panel;
  predictions?: Record<string, string>; // leaf -> the text typed in its field
  task?: number; // the exercise whose words the sandbox showed (its link's place among the sandbox's)
  checked?: boolean; // the predictions had been checked: their verdicts are shown again
}

export type Panel = (typeof PANELS)[number];
const PANELS = ["predict", "nudge"] as const; // plugins/tinydag_mkdocs/sandbox/exercises.py PANELS
export const PREDICTION_PARAM = "predict."; // + the leaf's name
export const OPEN_PARAM = "open";
export const TASK_PARAM = "task";
export const CHECKED_PARAM = "checked";
export const MAX_PREDICTION = 40; // characters of a carried prediction

const MAX_EXPRESSION = 400; // the parser rejects more than 200 anyway, with a message
export const MAX_MAGNITUDE = 1e6; // a variable's value, in an address or a field (valuecheck.ts)
const URL_NUMBER = new RegExp(`^\\s*[-+]?${NUMBER_PATTERN}\\s*$`); // the engine's literal, signed
const NAMED = /^([A-Za-z_]):(.+)$/; // a variable's name and a number: `a:2` in vals, `c:0.001` in nudge

/**
 * What encodeMoment writes: the moment itself; the exercise and the predictions are added after it
 * (withTask, translations.ts withPredictions).
 */
export type WrittenMoment = Required<
  Omit<SharedMoment, "open" | "predictions" | "task" | "checked" | "nudge">
> &
  Pick<SharedMoment, "nudge">;

export function encodeMoment(sandboxId: string, m: WrittenMoment): string {
  const params = new URLSearchParams();
  params.set("expr", m.expression);
  const vals = Object.entries(m.values)
    .map(([k, v]) => `${k}:${roundForUrl(v)}`)
    .join(",");
  if (vals) params.set("vals", vals);
  params.set("dir", m.direction);
  params.set("t", String(roundForUrl(m.time)));
  if (m.localDerivatives) params.set("local", "1");
  if (m.finalGradients) params.set("final", "1");
  if (m.playing) params.set("play", "1");
  if (m.nudge) params.set("nudge", `${m.nudge.leaf}:${roundForUrl(m.nudge.h)}`);
  // URLSearchParams writes a space as "+"; %20 reads the same everywhere, so "+" never stands for a space
  return `#${encodeURIComponent(sandboxId)}?${params.toString().replaceAll("+", "%20")}`;
}

function roundForUrl(x: number): number {
  return Number(x.toPrecision(12));
}

/** The moment a hash describes for this sandbox, or null when the hash is about something else. */
export function decodeMoment(hash: string, sandboxId: string): SharedMoment | null {
  const body = hash.startsWith("#") ? hash.slice(1) : hash;
  const q = body.indexOf("?");
  if (q < 0) return null;
  let id: string;
  try {
    id = decodeURIComponent(body.slice(0, q));
  } catch {
    return null;
  }
  if (id !== sandboxId) return null;
  const query = body.slice(q + 1);
  const params = new URLSearchParams(plusIsSpace(query) ? query : query.replaceAll("+", "%2B"));
  const moment: SharedMoment = { values: {} };
  const expr = params.get("expr");
  if (expr !== null) moment.expression = expr.slice(0, MAX_EXPRESSION);
  for (const pair of (params.get("vals") ?? "").split(",")) {
    const m = NAMED.exec(pair);
    if (!m) continue;
    const value = finite(m[2]);
    if (value !== null && Math.abs(value) <= MAX_MAGNITUDE) moment.values[m[1]!] = value;
  }
  const dir = params.get("dir");
  if (dir === "forward" || dir === "backward") moment.direction = dir;
  const t = finite(params.get("t"));
  if (t !== null && t >= 0) moment.time = t;
  if (params.has("local")) moment.localDerivatives = params.get("local") === "1";
  if (params.has("final")) moment.finalGradients = params.get("final") === "1";
  if (params.get("play") === "1") moment.playing = true;
  const nudge = NAMED.exec(params.get("nudge") ?? "");
  const h = finite(nudge?.[2]);
  if (nudge && h) moment.nudge = { leaf: nudge[1]!, h };
  const open = PANELS.find((p) => p === params.get(OPEN_PARAM));
  if (open) moment.open = open;
  const task = params.get(TASK_PARAM);
  if (task !== null && /^\d{1,2}$/.test(task)) moment.task = Number(task);
  for (const [key, text] of params) {
    const leaf = key.startsWith(PREDICTION_PARAM) ? key.slice(PREDICTION_PARAM.length) : "";
    if (!/^[A-Za-z_]$/.test(leaf) || !text.trim()) continue;
    moment.predictions ??= {};
    moment.predictions[leaf] = text.trim().slice(0, MAX_PREDICTION);
  }
  if (params.get(CHECKED_PARAM) === "1" && moment.predictions) moment.checked = true;
  return moment;
}

/**
 * Whether "+" means a space in this query. To URLSearchParams it always does, but a hand-written
 * `expr=a+b` means a + b. Only links written by this player before it wrote spaces as %20 use "+"
 * for a space; they are recognisable: "," ":" "(" and a literal "+" are %-escapes there, and a space
 * is never %20.
 */
function plusIsSpace(query: string): boolean {
  return /%[0-9A-Fa-f]{2}/.test(query) && !/%20/i.test(query);
}

function finite(text: string | null | undefined): number | null {
  if (text === null || text === undefined || !URL_NUMBER.test(text)) return null;
  const x = Number(text);
  return Number.isFinite(x) ? x : null;
}

/**
 * The address with the exercise whose words the sandbox shows (task.ts: its link's place, and the
 * panel it sits in) in place of any it named before; none when the learner closed them or moved on.
 */
export function withTask(hash: string, task: { exercise?: string; open?: string } | null): string {
  const exercise = task?.exercise;
  const replaced = (part: string): boolean =>
    part.startsWith(`${TASK_PARAM}=`) || (exercise !== undefined && part.startsWith(`${OPEN_PARAM}=`));
  const added = exercise === undefined ? [] : [`${TASK_PARAM}=${exercise}`];
  if (exercise !== undefined && task?.open) added.push(`${OPEN_PARAM}=${task.open}`);
  return replacing(hash, replaced, added);
}

/** A sandbox's address with the parameters `replaced` picks dropped and `added` put at its end. */
export function replacing(hash: string, replaced: (part: string) => boolean, added: string[]): string {
  const at = hash.indexOf("?");
  const head = at < 0 ? hash : hash.slice(0, at);
  const query = at < 0 ? [] : hash.slice(at + 1).split("&");
  const kept = [...query.filter((part) => part && !replaced(part)), ...added];
  return kept.length ? `${head}?${kept.join("&")}` : head;
}
