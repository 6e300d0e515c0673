// `npm run -s timeline -- "EXPR" --set a=2`: the timeline JSON on stdout (exit 0) or an error (exit 2);
// `--help` prints the usage on stdout (exit 0).
// Mirror of src/tinydag/cli.py, down to its error messages, so both CLIs print the same bytes for the
// same arguments.
import { TinyDagError } from "./errors";
import { NUMBER_PATTERN } from "./parse";
import { buildTimeline, dumps } from "./timeline";

export const USAGE =
  'usage: npm run -s timeline -- "EXPR" [--set NAME=VALUE]... (options may precede EXPR; -- ends them)';
export const HELP =
  "Prints the timeline of EXPR as JSON (exit 0), or the error it has as JSON (exit 2). Variables\n" +
  "that --set does not name are 1. Misuse prints this usage on stderr (exit 64).";

/** --help anywhere before `--` (after it, "--help" would be the expression). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).includes("--help");
}

export class UsageError extends Error {} // Python: ValueError

const VALUE = new RegExp(`^[ \\t]*[-+]?${NUMBER_PATTERN}[ \\t]*$`); // a literal of the sandbox's grammar, signed

/** Split argv into the expression and the --set values; UsageError on misuse. */
export function parseArgs(argv: readonly string[]): [string, Record<string, number>] {
  const positional: string[] = [];
  const values: Record<string, number> = {};
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k]!;
    if (arg === "--") {
      positional.push(...argv.slice(k + 1));
      break;
    } else if (arg === "--set" || arg.startsWith("--set=")) {
      const pair = arg.startsWith("--set=") ? arg.slice("--set=".length) : argv[++k];
      const sep = (pair ?? "").indexOf("=");
      const name = sep < 0 ? "" : pair!.slice(0, sep).replace(/^[ \t]+|[ \t]+$/g, "");
      const number = sep < 0 ? "" : pair!.slice(sep + 1);
      if (sep < 0 || name === "" || !VALUE.test(number)) {
        throw new UsageError(`--set expects NAME=VALUE with a number, got ${quoted(pair)}`);
      }
      values[name] = Number(number);
    } else if (arg.startsWith("--")) {
      throw new UsageError(`unknown option ${arg}`);
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 1) throw new UsageError("expected exactly one expression");
  return [positional[0]!, values];
}

/** The text as JSON writes a string (both command lines quote alike), or `nothing`. */
export function quoted(text: string | undefined): string {
  return text === undefined ? "nothing" : JSON.stringify(text);
}

export function main(
  argv: readonly string[],
  out: (text: string) => void = (t) => process.stdout.write(t),
  err: (text: string) => void = (t) => process.stderr.write(t),
): number {
  if (wantsHelp(argv)) {
    out(`${USAGE}\n${HELP}\n`);
    return 0;
  }
  let expression: string;
  let values: Record<string, number>;
  try {
    [expression, values] = parseArgs(argv);
  } catch (exc) {
    if (!(exc instanceof UsageError)) throw exc;
    err(`${exc.message}\n${USAGE}\n`);
    return 64;
  }
  try {
    out(`${dumps(buildTimeline(expression, values))}\n`);
  } catch (error) {
    if (!(error instanceof TinyDagError)) throw error;
    out(`${dumps(error.toJSON())}\n`);
    return 2;
  }
  return 0;
}
