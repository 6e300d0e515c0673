// `npm run -s timeline -- "EXPR" --set a=2`: the timeline JSON on stdout (exit 0) or an error (exit 2);
// `--help` prints the usage on stdout (exit 0).
// Mirror of src/tinydag/cli.py, down to Python's float() for --set values and its error messages,
// so both CLIs print the same bytes for the same arguments.
import { TinyDagError } from "./errors";
import { buildTimeline, dumps } from "./timeline";

export const USAGE = 'usage: npm run -s timeline -- "EXPR" [--set NAME=VALUE]... (options may precede EXPR; -- ends them)';
export const HELP = "Prints the timeline of EXPR as JSON (exit 0), or the error it has as JSON (exit 2). Variables\n"
  + "that --set does not name are 1. Misuse prints this usage on stderr (exit 64).";

/** --help anywhere before `--` (after it, "--help" would be the expression). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).includes("--help");
}

export class UsageError extends Error {} // Python: ValueError

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
      const name = sep < 0 ? "" : pair!.slice(0, sep);
      if (sep < 0 || name === "") {
        throw new UsageError(`--set expects NAME=VALUE, got ${pair === undefined ? "None" : pyRepr(pair)}`);
      }
      values[pyStrip(name)] = pyFloat(pair!.slice(sep + 1));
    } else if (arg.startsWith("--")) {
      throw new UsageError(`unknown option ${arg}`);
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 1) throw new UsageError("expected exactly one expression");
  return [positional[0]!, values];
}

export function main(argv: readonly string[], out: (text: string) => void = (t) => process.stdout.write(t),
  err: (text: string) => void = (t) => process.stderr.write(t)): number {
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

// ---- Python's float(str), str.strip() and repr(str), as far as a command line needs them ----

const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g");
const DIGITS = "[0-9](?:_?[0-9])*"; // underscores only between digits (PEP 515)
const FLOAT = new RegExp(`^[+-]?(?:(?:(?:${DIGITS})?\\.${DIGITS}|${DIGITS}\\.?)(?:[eE][+-]?${DIGITS})?|inf|infinity|nan)$`, "i");
const DECIMAL_DIGIT = /\p{Nd}/u;

export function pyStrip(text: string): string {
  return text.replace(STRIP, "");
}

/** float(text): any Unicode decimal digits, surrounding whitespace, _ separators, inf and nan. */
export function pyFloat(text: string): number {
  const ascii = pyStrip(Array.from(text, (c) => (DECIMAL_DIGIT.test(c) ? String(digitValue(c)) : c)).join(""));
  if (!FLOAT.test(ascii)) throw new UsageError(`could not convert string to float: ${pyRepr(text)}`);
  const plain = ascii.replaceAll("_", "").toLowerCase();
  const unsigned = plain.replace(/^[+-]/, "");
  const negative = plain.startsWith("-");
  if (unsigned === "nan") return NaN;
  if (unsigned.startsWith("inf")) return negative ? -Infinity : Infinity;
  return Number(plain);
}

function digitValue(c: string): number {
  // Unicode encodes every decimal digit run as 0..9 in order, so the offset in its run is its value.
  let start = c.codePointAt(0)!;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start -= 1;
  return (c.codePointAt(0)! - start) % 10;
}

/** repr(text): single quotes unless the text has ' but no ", escapes for what is not printable. */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const body = Array.from(text, (c) => {
    if (c === quote || c === "\\") return `\\${c}`;
    const named: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
    if (named[c] !== undefined) return named[c];
    if (c === " " || !/[\p{C}\p{Z}]/u.test(c)) return c;
    const cp = c.codePointAt(0)!;
    const [prefix, width] = cp <= 0xff ? ["x", 2] : cp <= 0xffff ? ["u", 4] : ["U", 8];
    return `\\${prefix}${cp.toString(16).padStart(width, "0")}`;
  });
  return `${quote}${body.join("")}${quote}`;
}
