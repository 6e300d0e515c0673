// Entry point of the engine bundle, assets/tinydag/engine.js: the TypeScript port of the engine
// (src/inference, through live.ts), the frameworks panel's PyTorch / JAX scripts, Check's judging and
// marks (a wrong prediction explained by the chain rule), what an error says under the expression,
// Nudge check's measurement and its words, and an exercise link's strip and landing.
// The player loads it the first time a reader's change, the scripts' panel, Check, Nudge or an
// exercise's link needs it (load.ts). The first frame and the presets draw from the JSON the build
// embedded, so a reader who only watches never downloads it.

import { arrive, open } from "../teaching/landing";
import { errorText } from "../controls/errortext";
import { ErrorView } from "../controls/errorview";
import { forgetAnswer, keepAnswers, reachAnswers, showAnswers, typedAgain } from "../teaching/answers";
import { writeScripts } from "../teaching/scripts";
import { showTask } from "../teaching/task";
import type { Engine } from "./load";
import { nudge, recompute, variablesOf } from "./live";
import { writeNudge } from "../controls/nudgeresult";
import { refuseValue } from "../controls/valuecheck";
import { edit, setValue } from "../model/edit";

const engine: Engine = {
  recompute,
  variablesOf,
  writeScripts,
  errorView: (...args) => new ErrorView(...args, errorText),
  showAnswers,
  reachAnswers,
  typedAgain,
  keepAnswers,
  forgetAnswer,
  nudgeCheck: nudge,
  showTask,
  writeNudge,
  open,
  arrive,
  refuseValue,
  edit,
  setValue,
};
window.tinydagEngine = engine;
