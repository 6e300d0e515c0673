// Entry point of the engine bundle, assets/tinydag/engine.js: the TypeScript port of the engine
// (src/inference, through live.ts), the PyTorch / JAX scripts it writes and the chain rule a wrong
// prediction is explained with, Nudge check's measurement and an exercise link's strip, which the player
// loads the first time a reader's change, the scripts' panel, Check, Nudge or a link needs them (load.ts). The first frame and the presets draw from the JSON the build
// embedded, so a reader who only watches never downloads it.

import { scripts } from "../../inference/frameworks";
import { explainGradient } from "../model/verdict";
import { showTask } from "../teaching/task";
import type { Engine } from "./load";
import { nudge, recompute, variablesOf } from "./live";

const engine: Engine = { recompute, variablesOf, scripts, explainGradient, nudgeCheck: nudge, showTask };
window.tinydagEngine = engine;
