"""Lighthouse 12 (mobile) on the lesson in en, ru and et, served gzip-compressed as GitHub Pages does.

Accessibility, best practices and SEO must be 100; performance, LCP, TBT and CLS are reported, each the
median of three runs per page. Lighthouse's CPU slowdown is the phone device's (bench/device.py), not its
fixed 4x, so the load budgets mean the same on any machine. The site is built with site_url set to the
local address it is served from, under a Pages-like subpath, so canonical and hreflang links point where
Lighthouse can follow them.

`lighthouse_json(url)` returns Lighthouse's full JSON report for one page; other sections (e.g.
player-specific rows) reuse it together with `published_site()`.
"""

from __future__ import annotations

import contextlib
import gzip
import http.server
import json
import os
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path

from .device import PHONE, Calibration, calibrate
from .table import Row, median

ROOT = Path(__file__).resolve().parents[1]
LIGHTHOUSE = ROOT / "node_modules/.bin/lighthouse"
CHROME = "/usr/bin/chromium"
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-background-networking --disable-component-update "
                "--disable-sync --no-first-run")
SUBPATH = "tinydag-lesson"
LESSON = {"en": "02-autograd/", "ru": "ru/02-autograd/", "et": "et/02-autograd/"}
CATEGORIES = (("performance", "performance", False), ("accessibility", "accessibility", True),
              ("best-practices", "best practices", True), ("seo", "SEO", True))  # id, name, asserted
METRICS = (("largest-contentful-paint", "LCP", "ms"), ("total-blocking-time", "TBT", "ms"),
           ("cumulative-layout-shift", "CLS", ""))
COMPRESSED = {".html", ".css", ".js", ".mjs", ".json", ".xml", ".svg", ".txt", ".map"}


class PagesHandler(http.server.SimpleHTTPRequestHandler):
    """Like GitHub Pages: gzip for text, a 10-minute cache, the site's 404.html for missing files."""

    def log_message(self, *args) -> None:
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # the redirect to the folder's URL
            path = path / "index.html"
        if not path.is_file():
            return self._not_found()
        body = path.read_bytes()
        gzipped = path.suffix in COMPRESSED and "gzip" in self.headers.get("Accept-Encoding", "")
        if gzipped:
            body = gzip.compress(body, 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return _Body(body)

    def _not_found(self):
        page = Path(self.directory) / SUBPATH / "404.html"
        body = page.read_bytes() if page.is_file() else b"Not found"
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return _Body(body)


class _Body:
    """What send_head returns: a file-like object copyfile() reads."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, size: int = -1) -> bytes:
        data, self.data = (self.data, b"") if size < 0 else (self.data[:size], self.data[size:])
        return data

    def close(self) -> None:
        pass


@contextlib.contextmanager
def published_site() -> Iterator[str]:
    """Builds the site for a local address and serves it there; yields the site's base URL."""
    with tempfile.TemporaryDirectory() as tmp:
        www = Path(tmp)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(PagesHandler, directory=str(www)))
        base = f"http://127.0.0.1:{server.server_address[1]}/{SUBPATH}/"
        env = dict(os.environ, SITE_URL=base, NO_MKDOCS_2_WARNING="1")
        subprocess.run([str(ROOT / ".venv/bin/mkdocs"), "build", "--strict", "--quiet", "--site-dir",
                        str(www / SUBPATH)], cwd=ROOT, env=env, check=True, capture_output=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield base
        finally:
            server.shutdown()
            server.server_close()


def lighthouse_json(url: str, categories: tuple[str, ...] = tuple(c for c, _, _ in CATEGORIES),
                    slowdown: float = 4.0) -> dict:
    """Lighthouse's JSON report for `url`: mobile, Lighthouse's simulated throttling at `slowdown`."""
    command = [str(LIGHTHOUSE), url, "--output=json", "--output-path=stdout", "--quiet",
               f"--chrome-flags={CHROME_FLAGS}", f"--only-categories={','.join(categories)}",
               f"--throttling.cpuSlowdownMultiplier={slowdown:.3f}"]
    done = subprocess.run(command, cwd=ROOT, env=dict(os.environ, CHROME_PATH=CHROME), capture_output=True,
                          text=True, check=False, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


# The budgets for a fast first load: (row name, budget text, test).
LOAD_BUDGETS = {"performance": ("≥ 95", lambda v: v >= 95), "TBT": ("≤ 150 ms", lambda v: v <= 150),
                "CLS": ("≤ 0.01", lambda v: v <= 0.01)}
PLAYER_TASK_BUDGET_MS = 50


RUNS = 3  # per page: one Lighthouse run varies by tens of ms of TBT; the table shows the median


def rows_for(lang: str, reports: list[dict], device: Calibration | None = None) -> list[Row]:
    """Rows for one page from one or more Lighthouse runs: the median of each figure."""
    def verdict(budget: tuple[str, bool | None]) -> tuple[str, bool | None]:
        text, ok = budget
        return text, ok if device is None or ok is None else device.verdict(PHONE, ok)
    rows = []
    for key, name, asserted in CATEGORIES:
        scores = [r["categories"][key]["score"] for r in reports]
        value = round(median(scores) * 100) if None not in scores else "n/a"
        budget, ok = ("= 100", value == 100) if asserted else verdict(_budget(name, value))
        rows.append(Row("Lighthouse", f"{lang}: {name} (mobile)", value, "/100", budget, ok))
    for audit, name, unit in METRICS:
        values = [r["audits"][audit].get("numericValue") for r in reports]
        numeric = None if None in values else median(values)
        shown = "n/a" if numeric is None else round(numeric, 3) if unit == "" else round(numeric)
        metric_budget = verdict(_budget(name, shown))
        rows.append(Row("Lighthouse", f"{lang}: {name} (mobile)", shown, unit, *metric_budget))
    longest = median([player_longest_task(r) for r in reports])
    rows.append(Row("Lighthouse", f"{lang}: the player's longest task (mobile)", round(longest), "ms",
                    *verdict((f"≤ {PLAYER_TASK_BUDGET_MS} ms", longest <= PLAYER_TASK_BUDGET_MS))))
    return rows


def _budget(name: str, value) -> tuple[str, bool | None]:
    if name not in LOAD_BUDGETS or not isinstance(value, int | float):
        return "", None
    text, test = LOAD_BUDGETS[name]
    return text, test(value)


def player_longest_task(report: dict) -> float:
    """The longest main-thread task Lighthouse attributes to the player's script (0 when none)."""
    items = report["audits"].get("long-tasks", {}).get("details", {}).get("items", [])
    return max((item["duration"] for item in items if "/assets/tinydag/" in str(item.get("url", ""))),
               default=0.0)


def failing_audits(report: dict) -> list[str]:
    """The asserted categories' audits that did not pass, for the message beside a failed row."""
    out = []
    for key, _, asserted in CATEGORIES:
        if not asserted:
            continue
        for ref in report["categories"][key]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref.get("weight", 0) and audit.get("score") is not None and audit["score"] < 1:
                out.append(f"{key}: {ref['id']} ({audit.get('title', '')})")
    return out


def phone_slowdown() -> Calibration:
    from playwright.sync_api import sync_playwright

    from .browser import LAUNCH_ARGS
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROME, args=LAUNCH_ARGS)
        try:
            return calibrate(browser)
        finally:
            browser.close()


def bench_lighthouse() -> list[Row]:
    device = phone_slowdown()
    slowdown = device.slowdown(PHONE)
    rows: list[Row] = [Row("Lighthouse", "CPU slowdown multiplier (the phone device)", slowdown, "×")]
    with published_site() as base:
        for lang, path in LESSON.items():
            reports = [lighthouse_json(base + path, slowdown=slowdown) for _ in range(RUNS)]
            rows += rows_for(lang, reports, device)
            for problem in sorted({p for report in reports for p in failing_audits(report)}):
                print(f"[bench] lighthouse {lang}: {problem}", flush=True)
    return rows
