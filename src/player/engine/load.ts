// The player's engine arrives on demand (engine.ts is its own bundle): `lazyEngine` answers as the
// engine does once it is loaded and throws EngineMissing before that; the sandbox then loads it
// (loadEngine) and replays the reader's change (sandbox.ts). The player's script tag names the
// engine's file (data-engine, with its version), relative to the page.

import type { Timeline } from "../../inference/types";
import type { NudgeResult } from "../model/nudge";
import type { writeNudge } from "../controls/nudgeresult";
import type { refuseValue } from "../controls/valuecheck";
import type { arrive, open } from "../teaching/landing";
import type { ErrorView } from "../controls/errorview";
import type { forgetAnswer, keepAnswers, reachAnswers, showAnswers, typedAgain } from "../teaching/answers";
import type { writeScripts } from "../teaching/scripts";
import type { showTask } from "../teaching/task";
import type { EngineResult } from "./live";
import type { edit, setValue } from "../model/edit";

/** ErrorView's arguments but its words, which the engine adds. */
type ErrorViewArgs = ConstructorParameters<typeof ErrorView> extends [...infer Head, unknown] ? Head : never;

export interface Engine {
  recompute(expression: string, values: Record<string, number>): EngineResult;
  variablesOf(expression: string): string[] | null;
  writeScripts: typeof writeScripts; // the frameworks panel: the graph as PyTorch and JAX, or why not
  // The error line under the expression: what an error says, and its marks (errorview.ts)
  errorView(...args: ErrorViewArgs): ErrorView;
  showAnswers: typeof showAnswers; // Check: every field read, judged (a wrong one by the chain rule), marked
  reachAnswers: typeof reachAnswers; // each frame after Check: the verdicts whose gradients have come show
  typedAgain: typeof typedAgain; // a field typed in after Check: a kept answer replaced, a verdict gone
  keepAnswers: typeof keepAnswers; // new numbers after Check: the answers kept, unmarked
  forgetAnswer: typeof forgetAnswer; // a field's verdict and words undone (only Check writes them)
  // Nudge check's measurement, with the engine's own recompute (at Nudge)
  nudgeCheck(timeline: Timeline, values: Record<string, number>, leaf: string, h: number): NudgeResult;
  showTask: typeof showTask; // the exercise a link opened, beside the control it uses (after its setup)
  writeNudge: typeof writeNudge; // what a nudge measured, in words under Nudge check (the engine ran it)
  open: typeof open; // an exercise's link or address: its words and where it takes the page
  arrive: typeof arrive; // a shared moment shown: the graph and Play, or the panel it unfolds
  refuseValue: typeof refuseValue; // a variable's number field committed with what it cannot take: why
  edit: typeof edit; // the text typed: its graph, or the one it falls back to (model.ts reduce)
  setValue: typeof setValue; // a value set: the graph at it, or the error it gives (model.ts reduce)
}

declare global {
  interface Window {
    tinydagEngine?: Engine;
  }
}

/** Thrown by lazyEngine while the engine is not loaded yet: nothing has changed, try again after loadEngine(). */
export class EngineMissing extends Error {}

// Read while the player's script runs (later, document.currentScript is another script or none).
const player = typeof document === "undefined" ? null : (document.currentScript as HTMLScriptElement | null);

/** The engine's address: the player tag's data-engine (relative to the page), else beside the player. */
function source(): string {
  const named = player?.dataset.engine;
  return named
    ? new URL(named, document.baseURI).href
    : new URL("engine.js", player?.src || document.baseURI).href;
}

let loading: Promise<Engine> | null = null;

const loaded = (): Engine => {
  const engine = window.tinydagEngine;
  if (!engine) throw new EngineMissing(); // (always caught: sandbox.ts)
  return engine;
};

// Each of the engine's functions, called on the engine once it is here (throwing EngineMissing before):
// one handler for all of them, rather than one forwarding function each in the player's bytes. Every
// name answers with a function, `then` too: never await lazyEngine or return it from an async function.
// (refuseValue is called on the engine loadEngine gives: a refused field's value comes back at
// once, its words with the engine, wiring.ts.)
export const lazyEngine = new Proxy({} as Omit<Engine, "refuseValue">, {
  get:
    (_, name) =>
    (...args: unknown[]): unknown =>
      (loaded() as unknown as Record<string | symbol, (...a: unknown[]) => unknown>)[name]!(...args),
});

export const engineReady = (): boolean => window.tinydagEngine !== undefined;

/** Load the engine's script once; a failed load (the connection dropped) may be tried again. */
export function loadEngine(): Promise<Engine> {
  if (window.tinydagEngine) return Promise.resolve(window.tinydagEngine);
  loading ??= new Promise<Engine>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = source();
    script.async = true;
    script.onload = () =>
      window.tinydagEngine ? resolve(window.tinydagEngine) : reject(new Error("no engine"));
    script.onerror = () => {
      script.remove();
      loading = null;
      reject(new Error(script.src)); // the engine that did not load (said to the reader by the sandbox)
    };
    document.head.append(script);
  });
  return loading;
}
