// The TypeScript engine, as the player uses it: expression + values -> timeline (or TinyDagError).
export { buildTimeline, dumps, timelineOf } from "./timeline";
export { MAX_CHARS, MAX_NODES, TinyDagError } from "./errors";
export { trace } from "./trace";
export { Value } from "./value";
export type * from "./types";
