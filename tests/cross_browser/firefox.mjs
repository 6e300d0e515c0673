// Debian's Firefox ESR driven by puppeteer-core over WebDriver BiDi, one page for the whole run, for
// the cross-browser tests and the benchmark. A line protocol on stdin/stdout, one JSON object each:
//   {"op": "goto", "url"} | {"op": "eval", "expression"} | {"op": "type", "text"} | {"op": "press", "key"}
//   | {"op": "size", "width", "height"} | {"op": "errors"} | {"op": "version"}
// -> {"value"} or {"error"}. Headful (on the caller's Xvfb): headless Firefox gets no WebGL without a GPU.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

const recorder = readFileSync(new URL("recorder.js", import.meta.url), "utf8");
const [width, height] = [1280, 800];

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath: process.env.FIREFOX || "/usr/bin/firefox-esr",
  headless: false,
  defaultViewport: { width, height },
  args: [`--width=${width + 200}`, `--height=${height + 300}`],
  extraPrefsFirefox: { "browser.shell.checkDefaultBrowser": false, "ui.prefersReducedMotion": 0 },
});
const page = (await browser.pages())[0] ?? (await browser.newPage());
await page.evaluateOnNewDocument(recorder);
const driverErrors = []; // what the driver's own channels report, beside the page's recorder
page.on("pageerror", (error) => driverErrors.push(`pageerror: ${error.message}`));
page.on("console", (message) => {
  if (message.type() === "error") driverErrors.push(`console: ${message.text()}`);
});

const ops = {
  goto: ({ url }) => page.goto(url, { waitUntil: "load" }).then(() => null),
  eval: ({ expression }) => page.evaluate(`(async () => (${expression}))()`),
  type: ({ text }) => page.keyboard.type(text),
  press: ({ key }) => page.keyboard.press(key),
  // The BiDi viewport command alone: page.setViewport also sends emulation.setScreenOrientationOverride,
  // which Firefox ESR 140 does not know.
  size: ({ width, height }) =>
    page.mainFrame().browsingContext.setViewport({ viewport: { width, height }, devicePixelRatio: null }),
  errors: () => driverErrors.splice(0),
  version: () => browser.version(),
};

const reply = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
reply({ value: "ready" });
for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line);
  try {
    reply({ value: (await ops[command.op](command)) ?? null });
  } catch (error) {
    reply({ error: String(error?.message ?? error) });
  }
}
await browser.close();
