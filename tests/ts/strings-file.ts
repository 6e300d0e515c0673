// The UI strings files as the tests read them: a minimal flat-YAML reader (key: "text" lines).
import { readFileSync } from "node:fs";
import { join } from "node:path";

export function strings(lang: string): Record<string, string> {
  const text = readFileSync(join(process.cwd(), `src/player/strings/${lang}.yml`), "utf8");
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = /^([a-z_]+):\s*"(.*)"\s*$/.exec(line);
    if (m) out[m[1]!] = JSON.parse(`"${m[2]!}"`) as string;
  }
  return out;
}
