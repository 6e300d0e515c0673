// The moment in the address bar (share.ts): written once the reader pauses (a pulse playing or not),
// about once a second while their pulse plays, and never over an address that changed meanwhile or
// names another sandbox. The page's globals it uses (location, history,
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

/**
 * A Share on a stand-in page whose address is `hash` (or on `page` again, for a second sandbox); what
 * it writes to the address is collected.
 */
function sharing(
  hash: string,
  id = "tinydag-1",
  page: Page = { location: { hash }, written: [] },
): { share: Share; page: Page } {
  const history = {
    state: null,
    replaceState: (_state: unknown, _title: string, url: string) => {
      page.written.push(url);
      page.location.hash = url;
    },
  };
  Object.assign(globalThis, { window: globalThis, location: page.location, history });
  const root = {
    id,
    querySelector: () => null, // no exercise shown
    querySelectorAll: () => [], // no predictions typed
    ownerDocument: { documentElement: { lang: "en" } },
  } as unknown as HTMLElement;
  const ui = { status: { firstChild: null, textContent: "" } } as unknown as Controls; // "Link copied"
  return { share: new Share(root, ui, {} as I18n), page };
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

test("while the reader's pulse plays, the address follows it about once a second", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { share, page } = sharing("");
    let time = 0;
    const playing = () => ({ ...state, playing: true, time });
    share.schedule(playing); // Backward pressed: written 300 ms on, as any change
    for (let ms = 0; ms < 2500; ms += 16) {
      time = ms / 1000;
      share.playing(playing); // every frame: not put off by the next
      mock.timers.tick(16);
    }
    const times = page.written.map((hash) => Number(/[?&]t=([\d.]+)/.exec(hash)![1]));
    assert.equal(page.written.length, 3, page.written.join("\n"));
    assert.ok(
      times[0]! >= 0.28 && times[0]! <= 0.32 && times[1]! >= 1.28 && times[2]! >= 2.28,
      String(times),
    );
    assert.ok(page.written.every((hash) => hash.includes("&play=1")));
    share.playing(() => ({ ...state, time: 2.6 })); // its end: the moment itself, nothing to play on
    mock.timers.tick(300);
    assert.equal(page.written.length, 4);
    assert.ok(!page.written.at(-1)!.includes("play="), page.written.at(-1));
  } finally {
    mock.timers.reset();
  }
});

test("a pulse plays on without taking the address from another sandbox the learner used", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { share: full, page } = sharing("", "tinydag-1");
    const { share: compact } = sharing("", "tinydag-compact-1", page);
    full.schedule(() => state); // the learner's change in the full sandbox
    mock.timers.tick(300);
    for (let ms = 0; ms < 3000; ms += 16) {
      compact.playing(() => ({ ...state, playing: true, time: ms / 1000 })); // a pulse started before
      mock.timers.tick(16);
    }
    assert.equal(page.written.length, 1);
    assert.ok(page.location.hash.startsWith("#tinydag-1?"), page.location.hash);
  } finally {
    mock.timers.reset();
  }
});

test("a pulse plays on without taking the address from where a link has taken the learner since", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    for (const away of ["#try-it-yourself", "#tinydag-1?expr=a%20*%20b&vals=a%3A2%2Cb%3A3&dir=forward&t=0"]) {
      const { share: compact, page } = sharing("", "tinydag-compact-1");
      let time = 0;
      const pulse = () => ({ ...state, playing: time < 3, time });
      compact.schedule(pulse); // Backward pressed in the compact player: its moment written
      mock.timers.tick(300);
      assert.ok(page.location.hash.startsWith("#tinydag-compact-1?"), page.location.hash);
      page.location.hash = away; // a link of the contents, or an exercise's link (walkthrough 20)
      for (let ms = 0; ms <= 3500; ms += 16) {
        time = ms / 1000;
        compact.playing(pulse); // its frames, and its end
        mock.timers.tick(16);
      }
      assert.equal(page.location.hash, away);
      assert.equal(page.written.length, 1, page.written.join("\n"));
    }
  } finally {
    mock.timers.reset();
  }
});

test("an address read or written here is read once: a second hashchange of it changes nothing", () => {
  const hash = "#tinydag-1?expr=a%20*%20b&vals=a%3A2%2Cb%3A3&dir=backward&t=1.5&play=1";
  const { share, page } = sharing(hash);
  assert.equal(share.moment()?.time, 1.5, "as the sandbox wakes");
  assert.equal(share.moment(true), null, "an exercise's hashchange once the player is ready");
  share.write({ ...state, time: 2 });
  assert.equal(share.moment(true), null, "nor what it wrote itself");
  page.location.hash = hash; // a link followed (Back, an exercise's link): read again
  assert.equal(share.moment(true)?.time, 1.5);
});
