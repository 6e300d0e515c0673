// What tests and the benchmark can read from the page: window.tinydagPlayer.
//   engineCalls  how many times the TypeScript engine ran (0 until the reader edits something)
//   sandboxes    one handle per mounted sandbox, by its element id
// Performance marks: "tinydag:first-frame" (first sandbox drawn), "tinydag:first-frame:<id>",
// and a measure "tinydag:input-to-frame" from each slider/expression input to its redrawn frame
// (about 500 at most, cleared when full).

import type { SandboxState } from "../model/model";

export interface SandboxHandle {
  /**
   * Renders now: until the task ends the canvas holds the frame, which a test reads back through the
   * canvas's own context (tests/browser_helpers.py PIXEL_STATS).
   */
  draw(): void;
  /** The current moment, the view angles and how many frames were drawn so far. */
  moment(): {
    direction: string;
    time: number;
    duration: number;
    playing: boolean;
    yaw: number;
    pitch: number;
    frames: number;
  };
  /** Every edge on screen as it was last drawn: CSS px from the stage's top-left corner. */
  edgePaths(): { id: string; from: string; to: string; path: { x: number; y: number }[] }[];
}

export interface DebugHandle {
  engineCalls: number;
  sandboxes: Record<string, SandboxHandle>;
}

declare global {
  var tinydagPlayer: DebugHandle | undefined; // window.tinydagPlayer in a page (globalThis in node)
}

export function debugHandle(): DebugHandle {
  return (globalThis.tinydagPlayer ??= { engineCalls: 0, sandboxes: {} });
}

const INPUT_TO_FRAME = "tinydag:input-to-frame";
const MEASURES_KEPT = 500; // then cleared (599 at most): bench/browser.py clears them, then reads up to 200
let firstFrameMarked = false;
let measured = 0; // inputs measured

/** One input's time to its redrawn frame, as a performance measure (read by the benchmark). */
export function recordInputToFrame(start: number): void {
  // Bounded: one entry per input would pile up for as long as someone drags. Counted every hundredth
  // input (listing them at each took 6 % of a 40-node graph's slider step), never cleared under the
  // benchmark's 200.
  if (++measured % 100 === 0 && performance.getEntriesByName(INPUT_TO_FRAME).length >= MEASURES_KEPT)
    performance.clearMeasures(INPUT_TO_FRAME);
  performance.measure(INPUT_TO_FRAME, { start, end: performance.now() });
}

/** The first drawn frame of a sandbox (and of the page's first sandbox). */
export function markFirstFrame(id: string): void {
  performance.mark(`tinydag:first-frame:${id}`);
  if (!firstFrameMarked) performance.mark("tinydag:first-frame");
  firstFrameMarked = true;
}

/** What a sandbox gives the debug handle to answer from (sandbox.ts). */
export interface SandboxProbe {
  draw(): void;
  state(): SandboxState;
  frames(): number;
  paths(): ReturnType<SandboxHandle["edgePaths"]>;
}

export function registerSandbox(root: HTMLElement, probe: SandboxProbe): void {
  const handles = debugHandle().sandboxes;
  // Every sandbox the plugin writes has its id.
  handles[root.id] = {
    draw: probe.draw,
    moment: () => {
      const s = probe.state();
      const { direction, time, playing, view } = s;
      return { ...view, direction, time, duration: s.schedule.duration, playing, frames: probe.frames() };
    },
    edgePaths: probe.paths,
  };
}
