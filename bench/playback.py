"""Playback frame time per engine: Chromium, Firefox and WebKit playing the forward pulse at 1280x800.

Each frame's time is the gap between two requestAnimationFrame callbacks in the page, over a few
seconds of the default graph's forward pulse (started again from its beginning whenever it ends). No
budget: it is this machine's software GL (SwiftShader in Chromium, Mesa llvmpipe in Firefox, WebKit
composited on the CPU), driven as the tests drive each engine (tests/cross_browser/drivers.py).
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright
from tests.cross_browser import drivers

from .browser import LAUNCH_ARGS
from .site import served_site
from .table import Row, median

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 1280, 800
SECONDS, FRAMES, LONGEST = 4, 30, 20  # at least 4 s and 30 frames, at most 20 s
READY = """new Promise(resolve => { const poll = () =>
  document.getElementById('tinydag-1')?.dataset.player === 'ready' ? setTimeout(resolve, 1000)
    : setTimeout(poll, 50); poll(); })"""  # awake (a link names it), then a second for the wake's tail
FRAME_TIMES = f"""new Promise(resolve => {{
  const root = document.getElementById('tinydag-1');
  const player = window.tinydagPlayer.sandboxes['tinydag-1'];
  const time = root.querySelector('input[name=time]'), play = root.querySelector('[data-action=play]');
  root.querySelector('[data-action=forward]').click();
  const start = performance.now(), gaps = [];
  let last = null;
  const tick = now => {{
    if (!player.moment().playing) {{  // the pulse has ended (or not started): from its beginning
      time.value = '0';
      time.dispatchEvent(new Event('input', {{bubbles: true}}));
      play.click();
    }}
    if (last !== null) gaps.push(now - last);
    last = now;
    const more = now - start < {SECONDS * 1000} || gaps.length < {FRAMES};
    if (more && now - start < {LONGEST * 1000}) requestAnimationFrame(tick); else resolve(gaps);
  }};
  requestAnimationFrame(tick);
}})"""


def _rows(engine: str, gaps: list[float]) -> list[Row]:
    if len(gaps) < 5:
        raise RuntimeError(f"{engine}: only {len(gaps)} frames in {LONGEST} s")
    gaps = sorted(gaps)
    p90 = gaps[round(0.9 * (len(gaps) - 1))]
    what = f"frame time, forward pulse playing at {WIDTH}x{HEIGHT}: {engine}"
    return [Row("Playback", f"{what}, median of {len(gaps)} frames", median(gaps), "ms"),
            Row("Playback", f"{what}, 90th percentile", p90, "ms")]


def _chromium(url: str) -> list[Row]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        page.goto(url)
        page.evaluate(READY)
        rows = _rows(f"Chromium {browser.version} (headless)", page.evaluate(FRAME_TIMES))
        browser.close()
    return rows


def _others(url: str) -> list[Row]:
    rows: list[Row] = []
    with drivers.xvfb() as display:
        for engine in drivers.ENGINES:
            reason = drivers.missing(engine)
            if reason:
                raise RuntimeError(reason)
            browser = drivers.launch(engine, display)
            try:
                browser.size(WIDTH, HEIGHT)
                browser.goto(url)
                browser.eval(READY)
                how = "headful on Xvfb" if engine == "firefox" else "bare GTK window on Xvfb"
                rows += _rows(f"{browser.version} ({how})", browser.eval(FRAME_TIMES))
            finally:
                browser.close()
    return rows


def bench_playback() -> list[Row]:
    with served_site() as (_, base):
        url = base + "02-autograd/#tinydag-1"  # a link to the sandbox wakes it at load
        return _chromium(url) + _others(url)
