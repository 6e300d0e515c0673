// `npm run -s timeline -- "EXPR" --set a=2`: the TypeScript twin of `python -m tinydag`.
// Bundles src/inference/cli.ts with esbuild into .build/ (only when a source is newer) and runs it.
import { build } from "esbuild";
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const sources = join(root, "src/inference");
const bundle = join(root, ".build/inference/cli.mjs");

const newest = Math.max(...readdirSync(sources).map((f) => statSync(join(sources, f)).mtimeMs));
if (!existsSync(bundle) || statSync(bundle).mtimeMs < newest) {
  mkdirSync(dirname(bundle), { recursive: true });
  const partial = `${bundle}.${process.pid}.mjs`; // renamed into place: parallel runs never read half a file
  await build({
    entryPoints: [join(sources, "cli.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: partial,
    logLevel: "warning",
  });
  renameSync(partial, bundle);
}
// A reader that closes the pipe early (`| head -c 0`) ends us quietly, as in Python (exit 1).
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(1);
});
const { main } = await import(pathToFileURL(bundle).href);
process.exitCode = main(process.argv.slice(2));
