// What tests and the benchmark can read from the page: window.tinydagPlayer.
//   engineCalls  how many times the TypeScript engine ran (0 until the reader edits something)
//   sandboxes    one handle per mounted sandbox, by its element id
// Performance marks: "tinydag:first-frame" (first sandbox drawn), "tinydag:first-frame:<id>",
// and a measure "tinydag:input-to-frame" from each slider/expression input to its redrawn frame
// (the last few hundred kept).

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
  interface Window {
    tinydagPlayer?: DebugHandle;
  }
}

export function debugHandle(): DebugHandle {
  if (typeof window === "undefined") return { engineCalls: 0, sandboxes: {} };
  window.tinydagPlayer ??= { engineCalls: 0, sandboxes: {} };
  return window.tinydagPlayer;
}

const MEASURES_KEPT = 250; // "tinydag:input-to-frame" entries kept (at most twice as many between trims)
let measuresRecorded = 0; // of them, since the last trim, on this page
let firstFrameMarked = false;

/** One input's time to its redrawn frame, as a performance measure (read by the benchmark). */
export function recordInputToFrame(start: number): void {
  performance.measure("tinydag:input-to-frame", { start, end: performance.now() });
  // Bounded: one entry per input would pile up for as long as someone drags. Keep
  // the last MEASURES_KEPT (bench/browser.py reads up to 200 after a burst), trimmed in batches.
  if (++measuresRecorded <= 2 * MEASURES_KEPT) return;
  const last = performance.getEntriesByName("tinydag:input-to-frame", "measure").slice(-MEASURES_KEPT);
  performance.clearMeasures("tinydag:input-to-frame");
  for (const m of last)
    performance.measure("tinydag:input-to-frame", { start: m.startTime, end: m.startTime + m.duration });
  measuresRecorded = last.length;
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
  handles[root.id || `sandbox-${Object.keys(handles).length}`] = {
    draw: probe.draw,
    moment: () => {
      const s = probe.state();
      const { direction, time, playing, view } = s;
      return {
        direction,
        time,
        duration: s.schedule.duration,
        playing,
        yaw: view.yaw,
        pitch: view.pitch,
        frames: probe.frames(),
      };
    },
    edgePaths: () => probe.paths(),
  };
}
