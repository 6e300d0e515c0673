// The TypeScript engine's side of the fuzz (tests/test_fuzz_engine.py, `make fuzz`): one JSON line in,
// one JSON line out, flushed, so pytest can ask one input at a time or stream 100,000.
//   in:  {"expression": str, "values": {name: float64 bits as 16 hex digits}}
//   out: {"outcome": "ok" | an error code | "crash", "node": the error's node or null,
//         "finite": every number of the timeline is finite, "sha1": of dumps(), "crash": message}
// Bundles src/inference/index.ts with esbuild into .build/fuzz/ (when a source is newer) and imports it.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const sources = join(root, "src/inference");
const bundle = join(root, ".build/fuzz/inference.mjs");

const newest = Math.max(...readdirSync(sources).map((f) => statSync(join(sources, f)).mtimeMs));
if (!existsSync(bundle) || statSync(bundle).mtimeMs < newest) {
  mkdirSync(dirname(bundle), { recursive: true });
  const partial = `${bundle}.${process.pid}.mjs`; // renamed into place: parallel runs never read half a file
  await build({
    entryPoints: [join(sources, "index.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: partial,
    logLevel: "warning",
  });
  renameSync(partial, bundle);
}
const { buildTimeline, dumps, TinyDagError } = await import(pathToFileURL(bundle).href);

const fromBits = (hex) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
};

const allFinite = (value) => {
  if (typeof value === "number") return Number.isFinite(value);
  if (value !== null && typeof value === "object") return Object.values(value).every(allFinite);
  return true;
};

function outcome({ expression, values }) {
  const env = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, fromBits(v)]));
  try {
    const timeline = buildTimeline(expression, env);
    const finite = allFinite(timeline);
    const text = finite ? dumps(timeline) : "";
    return { outcome: "ok", node: null, finite, sha1: createHash("sha1").update(text).digest("hex") };
  } catch (error) {
    if (!(error instanceof TinyDagError)) return { outcome: "crash", crash: String(error?.stack ?? error) };
    const text = dumps(error.toJSON());
    return {
      outcome: error.code,
      node: error.node,
      finite: true,
      sha1: createHash("sha1").update(text).digest("hex"),
    };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line) process.stdout.write(`${JSON.stringify(outcome(JSON.parse(line)))}\n`);
}
