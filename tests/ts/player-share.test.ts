// The moment in the address bar (share.ts): written once the reader pauses (a pulse playing or not),
// and never over an address that changed meanwhile. The page's globals it uses (location, history,
// timers) are stand-ins here; following a link in a real page is tested in the browser
// (tests/test_browser_exercise_links_and_compact_sandbox.py).
import assert from "node:assert/strict";
import { mock, test } from "node:test";
import { buildTimeline } from "../../src/inference/index";
import type { Controls } from "../../src/player/controls/controls";
import { initialState } from "../../src/player/model/model";
import { Share } from "../../src/player/page/share";
import type { I18n } from "../../src/player/shared/i18n";

type Page = { location: { hash: string }; written: string[] };

/** A Share on a stand-in page whose address is `hash`; what it writes to the address is collected. */
function sharing(hash: string): { share: Share; page: Page } {
  const page: Page = { location: { hash }, written: [] };
  const history = {
    state: null,
    replaceState: (_state: unknown, _title: string, url: string) => {
      page.written.push(url);
      page.location.hash = url;
    },
  };
  Object.assign(globalThis, { window: globalThis, location: page.location, history });
  const root = {
    id: "tinydag-1",
    querySelector: () => null, // no exercise shown
    querySelectorAll: () => [], // no predictions typed
    ownerDocument: { documentElement: { lang: "en" } },
  } as unknown as HTMLElement;
  return { share: new Share(root, {} as Controls, {} as I18n), page };
}

const state = initialState(buildTimeline("a * b", { a: 2, b: 3 }), { a: 2, b: 3 });

test("a change is written to the address once the reader pauses (300 ms), the last one only", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { share, page } = sharing("");
    share.schedule(() => state);
    mock.timers.tick(299);
    assert.deepEqual(page.written, []);
    share.schedule(() => ({ ...state, time: 1 }));
    mock.timers.tick(300);
    assert.equal(page.written.length, 1);
    assert.match(page.written[0]!, /^#tinydag-1\?expr=a%20\*%20b&vals=a%3A2%2Cb%3A3&dir=forward&t=1/);
  } finally {
    mock.timers.reset();
  }
});

test("a link followed before the write is due keeps its address: the older moment is not written over it", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { share, page } = sharing("");
    share.schedule(() => state); // a slider moved...
    mock.timers.tick(100);
    page.location.hash = "#tinydag-1?expr=a%20%2B%20a&vals=a%3A2"; // ...then a link, before its hashchange
    mock.timers.tick(500);
    assert.deepEqual(page.written, [], "the link's address stays for its hashchange to read");
    assert.equal(page.location.hash, "#tinydag-1?expr=a%20%2B%20a&vals=a%3A2");
  } finally {
    mock.timers.reset();
  }
});

test("a change while the pulse plays is written too: the address names the graph on screen", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { share, page } = sharing("#tinydag-1?expr=(a%20%2B%20b)%20*%20c&vals=a%3A2%2Cb%3A-3%2Cc%3A10");
    share.schedule(() => ({ ...state, playing: true, time: 0.4 })); // a preset chosen mid-pulse
    mock.timers.tick(300);
    assert.equal(page.written.length, 1, "written while the new graph's pulse plays");
    assert.match(page.written[0]!, /^#tinydag-1\?expr=a%20\*%20b&vals=a%3A2%2Cb%3A3&dir=forward&t=0.4/);
  } finally {
    mock.timers.reset();
  }
});
