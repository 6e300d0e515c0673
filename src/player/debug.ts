// What tests and the benchmark can read from the page: window.tinydagPlayer.
//   engineCalls  how many times the TypeScript engine ran (0 until the reader edits something)
//   sandboxes    one handle per mounted sandbox, by its element id
// Performance marks: "tinydag:first-frame" (first sandbox drawn), "tinydag:first-frame:<id>",
// and a measure "tinydag:input-to-frame" from each slider/expression input to its redrawn frame.

export interface SandboxHandle {
  /** Renders now and reads the canvas back: how many pixels are drawn, and how many colours. */
  pixelStats(): { drawn: number; total: number; colours: number };
  /** The current moment, the view angles and how many frames were drawn so far. */
  moment(): { direction: string; time: number; duration: number; playing: boolean; yaw: number; pitch: number; frames: number };
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
