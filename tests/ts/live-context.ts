// reduce()'s context with the real engine, as the page gives it once engine.js has loaded (sandbox.ts),
// for the node tests that drive the sandbox's transitions.
import { nudge, recompute, variablesOf } from "../../src/player/engine/live";
import { edit, setValue } from "../../src/player/model/edit";
import type { Context } from "../../src/player/model/model";

export const liveContext = (autoplay: boolean): Context => ({
  compute: recompute,
  variablesOf,
  nudgeCheck: nudge,
  edit,
  setValue,
  autoplay,
  lang: "en",
});
