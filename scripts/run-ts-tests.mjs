// Bundles every tests/ts/*.test.ts with esbuild and runs them with node's built-in test runner.
// Exits non-zero when a test fails or when there are no tests at all.
import { build } from "esbuild";
import { readdirSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const testDir = "tests/ts";
const outDir = ".build/ts-tests";
const entries = readdirSync(testDir)
  .filter((f) => f.endsWith(".test.ts"))
  .map((f) => join(testDir, f));
if (entries.length === 0) {
  console.error("no TypeScript tests found in tests/ts");
  process.exit(1);
}
rmSync(outDir, { recursive: true, force: true });
await build({
  entryPoints: entries,
  outdir: outDir,
  bundle: true,
  platform: "node",
  format: "esm",
  outExtension: { ".js": ".mjs" },
  logLevel: "warning",
});
const files = entries.map((e) => join(outDir, e.split("/").pop().replace(/\.ts$/, ".mjs")));
const run = spawnSync(process.execPath, ["--test", "--test-reporter=spec", ...files], { stdio: "inherit" });
process.exit(run.status ?? 1);
