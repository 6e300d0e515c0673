"""Shared pieces of the browser tests: one Debian Chromium for the whole session, pages of the
built lesson, and small helpers that read what the reader sees ([data-node] cards, the timeline).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import threading
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / ".build" / "shots"  # make shots writes its screenshots here
CHROMIUM = "/usr/bin/chromium"
# No GPU here: WebGL runs on Mesa's llvmpipe through ANGLE's OpenGL ES backend (Debian's libegl-mesa0 and
# libgl1-mesa-dri, as Firefox's and WebKit's tests use it), and the page's layers are composited in
# software (Debian's wrapper turns GPU rasterization on; software compositing turns it off too). On
# this CPU the suite runs in about four fifths of the time it takes on SwiftShader, whose compositing
# also took more than twice as long per frame. What a test reads is the same: the DOM, the canvas's
# pixels, screenshots. `make bench` keeps its own launch options, SwiftShader's, as a reader's browser
# without a GPU would.
LAUNCH_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--use-gl=angle", "--use-angle=gl-egl",
               "--ignore-gpu-blocklist", "--disable-gpu-compositing"]
# The tests also turn WebGL's multisampling off: on a software GL the edges' antialiasing was two fifths of
# the GPU process's time (the Chromium tests on two workers: 346 s with it, 300 s without). No test judges
# an edge's smoothness (they read the DOM, whether the canvas is drawn and how many colours it has); the
# screenshots for people (make shots) keep it, as a reader's browser draws them.
NO_MULTISAMPLING = "--webgl-antialiasing-mode=none"
LESSON = {"en": "02-autograd/", "ru": "ru/02-autograd/", "et": "et/02-autograd/"}
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": PHONE["height"], "height": PHONE["width"]}  # a phone turned: 844x390
# Collects the page's layout shifts not caused by input in window.__shifts (from the page's start).
SHIFTS = """() => { window.__shifts = [];
  new PerformanceObserver(list => window.__shifts.push(...list.getEntries()
    .filter(e => !e.hadRecentInput).map(e => e.value))).observe({type: 'layout-shift', buffered: true}); }"""
MINUS = "\u2212"

_shared: dict = {}


def shots_asked(config: pytest.Config) -> bool:
    """Whether this run makes the screenshots for people (`pytest -m shots`, make shots)."""
    return "shots" in (config.getoption("markexpr") or "")


def shared_browser(request: pytest.FixtureRequest):
    """One Chromium per test session, however many modules ask for it."""
    if "browser" not in _shared:
        if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
            pytest.fail("Debian's Chromium is missing: `apt-get install -y chromium` (make test does it)")
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        _shared["playwright"] = playwright
        args = LAUNCH_ARGS if shots_asked(request.config) else [*LAUNCH_ARGS, NO_MULTISAMPLING]
        _shared["browser"] = playwright.chromium.launch(executable_path=CHROMIUM, args=args)

        def close() -> None:
            browser = _shared.pop("browser", None)
            playwright = _shared.pop("playwright", None)
            if browser is not None:
                browser.close()
            if playwright is not None:
                playwright.stop()

        request.addfinalizer(close)
    return _shared["browser"]


def _url(base: str, lang: str, hash: str) -> str:
    """The lesson's address with a query that changes every time (fresh_url)."""
    return fresh_url(f"{base}{LESSON[lang]}{hash}")


# Errors the DevTools protocol does not pass on (a ResizeObserver loop is an ErrorEvent without an
# exception): the page itself hears them first and hands them over as a console message.
PAGE_ERRORS = """addEventListener('error', e => {
    if (e instanceof ErrorEvent && !e.error) console.error('[uncaught] ' + e.message); }, true);"""
# (A resource that fails to load sends a plain Event, caught here too: a network's fault, not the page's.)


def _watch_errors(page) -> None:
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and m.text.startswith("[uncaught] ")
            and page.errors.append(m.text))
    page.add_init_script(PAGE_ERRORS)


# On a load the tests ask for (their `load=` query), the site's storage starts empty, as in a new
# context: what Material keeps there (the palette a reader chose, a search) never carries over from
# one test's page to the next.
FRESH_STORAGE = """if (/[?&]load=\\d+/.test(location.search)) {
    try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }"""


def reused_page(browser, viewport: dict | None = None, color_scheme: str = "light",
                reduced_motion: str = "no-preference", **context):
    """A page reused across tests, one per viewport size and set of context options (touch, no
    JavaScript, permissions) on each worker: loading again in a warm page costs a third of a new
    browser context (about 0.5 CPU-s against 1.5 for the lesson). Nothing survives the next load but the
    context's options: its errors are cleared, its size, colour scheme and motion preferences set
    here every time, its storage emptied by the load (FRESH_STORAGE). Callers do not close it.
    """
    viewport = viewport or DESKTOP
    pages = _shared.setdefault("pages", {})
    key = (viewport["width"], viewport["height"],
           tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in context.items())))
    page = pages.get(key)
    if page is None or page.is_closed():
        page = browser.new_context(viewport=viewport, **context).new_page()
        _watch_errors(page)
        page.add_init_script(FRESH_STORAGE)
        pages[key] = page
    page.errors.clear()
    if page.viewport_size != viewport:  # a test resized it
        page.set_viewport_size(viewport)
    page.emulate_media(media="screen", color_scheme=color_scheme, reduced_motion=reduced_motion)
    return page


def fresh_url(url: str) -> str:
    """`url` with a query that changes every time (load=N): a new hash still loads the page afresh."""
    _shared["loads"] = _shared.get("loads", 0) + 1
    address, mark, hash = url.partition("#")
    return f"{address}{'&' if '?' in address else '?'}load={_shared['loads']}{mark}{hash}"


def lesson_page(browser, base: str, lang: str = "en", viewport: dict | None = None, hash: str = "",
                color_scheme: str = "light", reduced_motion: str = "no-preference"):
    """The lesson freshly loaded in a reused page (reused_page), its sandboxes awake."""
    page = reused_page(browser, viewport, color_scheme, reduced_motion)
    page.goto(_url(base, lang, hash), wait_until="commit")
    sandbox_ready(page)
    return page


def open_lesson(browser, base: str, lang: str = "en", viewport: dict | None = None, hash: str = "",
                **context):
    """The lesson freshly loaded in a reused page with special context options (no JavaScript, touch,
    permissions; a colour scheme or reduced motion among them is set on the page), its sandboxes
    awake where there is JavaScript."""
    page = reused_page(browser, viewport, **context)
    page.goto(_url(base, lang, hash), wait_until="commit")
    if context.get("java_script_enabled", True):
        sandbox_ready(page)
    else:
        page.wait_for_load_state("domcontentloaded")
    return page


WAKE_AND_WAIT = """() => {
    const all = [...document.querySelectorAll('[data-sandbox]')];
    for (const el of all.filter(el => el.dataset.wake === 'waiting'))
        el.dispatchEvent(new FocusEvent('focusin', {bubbles: true}));
    return all.length > 0 && all.every(el => el.dataset.player && el.dataset.player !== 'mounting');
}"""


def sandbox_ready(page) -> None:
    """Wake every sandbox (they sleep until needed: focusing into one wakes it) and wait until each
    player has mounted (or given up: no WebGL). Polled, because the page may still be loading."""
    page.wait_for_function(WAKE_AND_WAIT)


def paused_in_view(page) -> None:
    """Scroll the sandbox into view, let its autoplay start, and pause it: a known state."""
    scroll_to_player(page)
    page.wait_for_function("window.tinydagPlayer.sandboxes['tinydag-1'].moment().playing")
    pause(page)


def moment_hash(expression: str, values: dict[str, float], direction: str = "forward", time: float = 0,
                **options: bool) -> str:
    """The address of a sandbox moment (#tinydag-1?expr=…), as a reader's link writes it; `options`:
    local=True/False, final=True/False (left out: the sandbox keeps what it shows)."""
    vals = ",".join(f"{k}:{v}" for k, v in values.items())
    flags = "".join(f"&{name}={int(on)}" for name, on in options.items())
    return f"#tinydag-1?expr={quote(expression)}&vals={quote(vals)}&dir={direction}&t={time}{flags}"


DEFAULT_GRAPH = ("(a + b) * c", {"a": 2, "b": -3, "c": 10})


def open_moment(page, expression: str = DEFAULT_GRAPH[0], values: dict[str, float] | None = None,
                direction: str = "forward", time: float = 0, local: bool = False,
                final: bool = False) -> None:
    """Open a moment in the loaded lesson by changing the address's hash, as a reader's link does (the
    player follows `hashchange`): ten times cheaper than a page load. By default the lesson's own graph
    and values at the start of forward, paused, options off: what a fresh load shows, so tests can share
    one page. Waits until the sandbox shows it."""
    values = DEFAULT_GRAPH[1] if values is None and expression == DEFAULT_GRAPH[0] else values or {}
    _shared["moments"] = _shared.get("moments", 0) + 1  # a new hash every time, so hashchange fires
    hash = moment_hash(expression, values, direction, time, local=local, final=final)
    page.evaluate("h => { location.hash = h; }", f"{hash}&n={_shared['moments']}")
    try:
        page.wait_for_function("""([expr, dir, t]) => {
            const m = window.tinydagPlayer.sandboxes['tinydag-1'].moment();
            return document.querySelector('[data-sandbox] input[name=expression]').value === expr
                && m.direction === dir && !m.playing
                && Math.abs(m.time - Math.min(t, m.duration)) < 1e-9; }""",
                               arg=[expression, direction, time])
    except PlaywrightTimeout:  # say what the sandbox showed instead, for a failure seen once in a while
        shown = page.evaluate("""() => ({moment: window.tinydagPlayer.sandboxes['tinydag-1'].moment(),
            field: document.querySelector('[data-sandbox] input[name=expression]').value,
            hash: location.hash, wake: document.querySelector('[data-sandbox]').dataset.wake})""")
        raise AssertionError(f"the moment {hash} did not open: {shown}") from None
    settle(page)


# Resolves once the page has not scrolled for 10 frames: a smooth scroll (a link's, Check's, Nudge's)
# has ended, however slowly a loaded machine draws it.
SETTLED = """() => new Promise(done => { let last = scrollY, still = 0;
    const step = () => { still = scrollY === last ? still + 1 : 0; last = scrollY;
        if (still >= 10) done(); else requestAnimationFrame(step); };
    requestAnimationFrame(step); })"""


def scroll_to_player(page) -> None:
    page.evaluate("document.querySelector('[data-sandbox] .tdg-player').scrollIntoView({block: 'start'})")


def moment(page, sandbox: str = "tinydag-1") -> dict:
    return page.evaluate(f"window.tinydagPlayer.sandboxes['{sandbox}'].moment()")


def engine_calls(page) -> int:
    return page.evaluate("window.tinydagPlayer.engineCalls")


def nodes(page) -> dict[str, str]:
    """Visual node label (as on the card) -> node id."""
    pairs = page.evaluate("[...document.querySelectorAll('[data-sandbox] [data-node]')]"
                          ".map(el => [el.getAttribute('aria-label'), el.dataset.node])")
    return dict(pairs)


def field(page, node_id: str, name: str) -> str:
    return page.locator(f"[data-sandbox] [data-node='{node_id}'] [data-field={name}]").inner_text()


def grads(page) -> dict[str, str]:
    """Card label -> the grad text the reader sees."""
    pairs = page.evaluate("[...document.querySelectorAll('[data-sandbox] [data-node]')].map(el => "
                          "[el.getAttribute('aria-label'),"
                          " el.querySelector('[data-field=grad]').textContent])")
    return dict(pairs)


# What each card says of its node: operation, glyph and title, its name and tooltip, badges.
CARDS = """() => [...document.querySelectorAll('[data-sandbox] [data-node]')].map(card => {
  const title = card.querySelector('.tdg-label');
  return {
    op: card.dataset.op, glyph: card.querySelector('.tdg-glyph').textContent,
    title: title ? title.textContent : null,
    overflows: title ? title.scrollWidth > title.clientWidth + 1 : false,
    name: card.getAttribute('aria-label'), tooltip: card.getAttribute('title'),
    focusable: card.hasAttribute('tabindex'),  // one card is in the tab order, arrow keys reach the rest
    badges: [...card.querySelectorAll('[data-badge]')].map(b => [b.dataset.badge, b.textContent]),
  };
})"""


def table_rows(page) -> list[list[str]]:
    """The node table's rows, each as its cells' texts."""
    return page.evaluate("[...document.querySelectorAll('[data-sandbox] .tdg-table tbody tr')]"
                         ".map(tr => [...tr.cells].map(c => c.textContent))")


def set_range(page, selector: str, value: float) -> None:
    """Move a range input as a drag would: set its value and fire `input`."""
    page.locator(selector).evaluate(
        "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', {bubbles: true})); }", value)


def seek(page, time: float) -> None:
    set_range(page, "[data-sandbox] input[name=time]", time)
    settle(page)


def step_backward_to(page, count: int) -> None:
    """Restart backward and land exactly after `count` events (the seed is event 1), the page still
    (a pulse the reader starts brings the stage into view, smoothly, when it is not)."""
    page.click("[data-sandbox] [data-action=backward]")
    seek(page, count)
    page.evaluate(SETTLED)


# The engine loads with the first change that needs it (src/player/engine/load.ts): then the change
# is drawn once it has arrived.
SETTLE = """async () => {
  const engine = document.querySelector('script[src*="/engine.js"]');
  if (engine && !window.tinydagEngine)
    await new Promise(r => { engine.addEventListener('load', r); engine.addEventListener('error', r); });
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""


def settle(page) -> None:
    """Wait until the player has drawn the current state (the engine, if it is loading; two frames)."""
    page.evaluate(SETTLE)


def type_expression(page, text: str) -> None:
    """The whole text typed, then Enter (an error at its end is said at once, not after a pause)."""
    box = page.locator("[data-sandbox] input[name=expression]")
    box.fill(text)
    box.press("Enter")
    settle(page)


def set_values(page, values: dict[str, float]) -> None:
    """Type each variable's value in its number field and commit it (`change`)."""
    for name, value in values.items():
        page.locator(f"[data-sandbox] input[name=num-{name}]").fill(str(value))
        page.locator(f"[data-sandbox] input[name=num-{name}]").dispatch_event("change")
    settle(page)


# Setup, not a reader's gesture: the Play / Pause button's own click, without Playwright's wait for a
# button that stands still across frames (a third of a second while a pulse plays, on 104 calls:
# a tenth of the Chromium tests' time). Tests whose subject is the button press it as a reader does.
PAUSE = """() => {
  if (window.tinydagPlayer.sandboxes['tinydag-1'].moment().playing)
    document.querySelector('[data-sandbox] [data-action=play]').click();
  return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""


def pause(page) -> None:
    """Pause the first sandbox if it plays, and wait until it has drawn the paused state."""
    page.evaluate(PAUSE)


def num(text: str) -> float:
    return float(text.replace(MINUS, "-"))


# What a sandbox drew: its frame drawn now and read back in the same task, through the canvas's own
# WebGL context (the player keeps no copy): pixels drawn (not transparent), of all, and how many colours.
PIXEL_STATS = """(id) => {
  window.tinydagPlayer.sandboxes[id].draw();
  const canvas = document.querySelector(`#${id} .tdg-canvas`);
  const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
  const [w, h] = [gl.drawingBufferWidth, gl.drawingBufferHeight], pixels = new Uint8Array(w * h * 4);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  let drawn = 0;
  const colours = new Set();
  for (let i = 0; i < pixels.length; i += 4) {
    if (pixels[i + 3] === 0) continue;
    drawn++;
    colours.add((pixels[i] >> 3) << 10 | (pixels[i + 1] >> 3) << 5 | pixels[i + 2] >> 3);
  }
  return {drawn, total: w * h, colours: colours.size};
}"""


def pixel_stats(page, sandbox: str = "tinydag-1") -> dict:
    """What the sandbox draws now: {drawn, total, colours} (PIXEL_STATS)."""
    return page.evaluate(PIXEL_STATS, sandbox)


STAGE_GEOMETRY = """() => {
  const root = document.querySelector('[data-sandbox]');
  const stage = root.querySelector('.tdg-stage').getBoundingClientRect();
  const box = el => { const b = el.getBoundingClientRect();
                      return {x: b.left - stage.left, y: b.top - stage.top, w: b.width, h: b.height}; };
  return {
    width: stage.width, height: stage.height,
    cards: [...root.querySelectorAll('[data-node]')].map(el => ({id: el.dataset.node, ...box(el)})),
    labels: [...root.querySelectorAll('.tdg-edge-label:not([hidden])')].map(el => ({
      edge: el.dataset.edge, text: el.innerText, kind: el.dataset.kind, form: el.dataset.form,
      clipped: el.scrollWidth > el.clientWidth + 1, ...box(el)})),
    edges: window.tinydagPlayer.sandboxes[root.id].edgePaths(),
    notes: [...root.querySelectorAll('[data-node] .tdg-note:not([hidden])')].map(el => ({
      id: el.closest('[data-node]').dataset.node, ...box(el)})),
    hung: [...root.querySelectorAll('[data-node] :is(.tdg-expansion, .tdg-delta):not([hidden])')].map(el => ({
      id: el.closest('[data-node]').dataset.node, ...box(el)})),
    bars: [...root.querySelectorAll('.tdg-pan-bar:not([hidden])')].map(el => ({
      axis: el.dataset.axis, ...box(el)})),
    carried: [...root.querySelectorAll('.tdg-carried:not([hidden])')].map(el => ({
      text: el.textContent, under: el.dataset.under === 'true', landed: el.dataset.landed === 'true',
      ...box(el)})),
  };
}"""


def stage_geometry(page) -> dict:
    """Boxes of the cards and visible edge labels (CSS px from the stage's corner), edges on screen."""
    return page.evaluate(STAGE_GEOMETRY)


# Seeks to each time in turn as seek() does (the timeline's value and its `input`, then two animation
# frames) and reads there with READ: the steps of a walk in one round trip instead of three each.
AT_EACH_TIME = """async (times) => {
  const slider = document.querySelector('[data-sandbox] input[name=time]'), read = READ, found = [];
  for (const t of times) {
    slider.value = String(t);
    slider.dispatchEvent(new Event('input', {bubbles: true}));
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    found.push(read());
  }
  return found;
}"""


def at_each_time(page, times: Iterable[float], read: str = STAGE_GEOMETRY) -> list:
    """What `read` (a JavaScript function without arguments) returns at each time of the timeline."""
    return page.evaluate(AT_EACH_TIME.replace("READ", read), list(times))


def _overlap(a: dict, b: dict, tolerance: float = 0.5) -> bool:
    return (a["x"] < b["x"] + b["w"] - tolerance and b["x"] < a["x"] + a["w"] - tolerance
            and a["y"] < b["y"] + b["h"] - tolerance and b["y"] < a["y"] + a["h"] - tolerance)


def overlapping_cards(geometry: dict) -> list[str]:
    cards = geometry["cards"]
    return [f"{a['id']} and {b['id']}" for i, a in enumerate(cards) for b in cards[i + 1:] if _overlap(a, b)]


def covered_cards(expansion: dict, geometry: dict) -> list[str]:
    """Cards an expansion panel lies over (other than its own)."""
    box = expansion["box"]
    return [c["id"] for c in geometry["cards"] if c["id"] != expansion["node"] and _overlap(box, c)]


def layout_problems(geometry: dict) -> list[str]:
    """What a reader could not read: labels over cards or over each other, labels cut off by the
    stage or lying on its scroll bars, a carried number over a label, a card or its tab, a card's tab
    meeting another card or its tab, edges running under a card they do not belong to."""
    problems = []
    labels, cards = geometry["labels"], geometry["cards"]
    for label in labels:
        name = f"label {label['text']!r}"
        problems += [f"{name} covers card {c['id']}" for c in cards if _overlap(label, c)]
        inside = (label["x"] >= 0 and label["y"] >= 0 and label["x"] + label["w"] <= geometry["width"]
                  and label["y"] + label["h"] <= geometry["height"])
        if not inside or label["clipped"]:
            problems.append(f"{name} is clipped")
        # nor lies on a scroll bar's strip, where the bar passes as the graph pans (xb14)
        problems += [f"{name} lies on the {bar['axis']} scroll bar's strip"
                     for bar in geometry.get("bars", [])
                     if _overlap(label, {**bar, "x": 0, "w": geometry["width"]} if bar["axis"] == "x"
                                 else {**bar, "y": 0, "h": geometry["height"]})]
    for i, a in enumerate(labels):
        problems += [f"labels {a['text']!r} and {b['text']!r} overlap"
                     for b in labels[i + 1:] if _overlap(a, b)]
    carried = geometry.get("carried", [])
    for i, number in enumerate(carried):  # a number a pulse carries never lies over a label's words
        if number["landed"] and number["under"]:  # once arrived it rests in the open, or not at all
            problems.append(f"carried number {number['text']!r} rests beneath the cards and labels")
        problems += [f"carried number {number['text']!r} overlaps label {label['text']!r}" for label in labels
                     if not number["under"] and _overlap(number, label)]
        # nor over another (walkthrough 11, on a phone), nor under one (walkthrough 15: "−1" half under
        # "10", the two inputs of a sum converging on it)
        problems += [f"carried numbers {number['text']!r} and {other['text']!r} overlap"
                     for other in carried[i + 1:] if _overlap(number, other)]
        # nor over a card's numbers or its tab (walkthrough 10: over b's running sum on a crowded graph;
        # on an edge too short for it, it passes beneath them)
        problems += [f"carried number {number['text']!r} covers {kind} of {box['id']}"
                     for kind, boxes in (("card", cards), ("the tab", geometry.get("notes", [])))
                     for box in boxes if not number["under"] and _overlap(number, box)]
    notes = geometry.get("notes", [])
    for i, a in enumerate(notes):  # nor another card's tab (walkthrough 24: e's sum over the end of b's)
        problems += [f"the tabs of {a['id']} and {b['id']} overlap" for b in notes[i + 1:] if _overlap(a, b)]
    for note in notes:  # a card's tab (a running sum) never meets another card,
        # nor what hangs under one: its local derivatives' panel, its nudge's change (review 48)
        problems += [f"the tab of {note['id']} meets card {card['id']}" for card in cards
                     if card["id"] != note["id"] and _overlap(note, card)]
        problems += [f"the tab of {note['id']} meets what hangs under card {below['id']}"
                     for below in geometry.get("hung", [])
                     if below["id"] != note["id"] and _overlap(note, below)]
    for edge in geometry["edges"]:
        path = edge["path"]
        ends = max(2, len(path) // 6)  # near its ends an edge meets its own cards
        for card in cards:
            if any(card["x"] + 2 < p["x"] < card["x"] + card["w"] - 2
                   and card["y"] + 2 < p["y"] < card["y"] + card["h"] - 2 for p in path[ends:-ends]):
                problems.append(f"edge {edge['from']} -> {edge['to']} runs under card {card['id']}")
    return problems


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@contextlib.contextmanager
def serving(folder: Path, path: str = ""):
    """Serve a folder over http on a free localhost port; yields its URL (with `path` appended)."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{path}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def open_page(browser, url: str, viewport: dict = DESKTOP, **options):
    """`url` freshly loaded in a reused page (reused_page) with these context options, collecting the
    page's errors in page.errors."""
    page = reused_page(browser, viewport, **options)
    page.goto(fresh_url(url))
    return page
