"""Shared fixtures: the real site, built once per session, and a local server for it; the gears
widget's small site (tests/gears_helpers.py), for both gears test files.

The site is built as if published at a GitHub Pages subpath (SITE_URL below) and served under the
same subpath, so every test that browses it also checks that no URL assumes the site root.
"""

import fcntl
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from . import browser_helpers
from .gears_helpers import gears_server  # noqa: F401  (a fixture: the gears' site, for both gears files)

# On CI (.ci/run sets CI=1) the random cases are the same every run, so a red build always
# reproduces; on a developer's machine Hypothesis keeps exploring new cases.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")

ROOT = Path(__file__).resolve().parent.parent
SUBPATH = "tinydag-lesson"
SITE_URL = f"https://owner.github.io/{SUBPATH}/"  # what a Pages deployment would set


@pytest.hookimpl(tryfirst=True)  # before -m selects: the marker added here counts there
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test that drives Chromium (it asks for the `browser` fixture) carries the `browser` marker,
    wherever it lives; the screenshot makers (`shots`) run only when asked for: `pytest -m shots`."""
    shots = browser_helpers.shots_asked(config)
    kept, dropped = [], []
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
        (kept if shots or item.get_closest_marker("shots") is None else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """`--dist loadgroup` (make test-py's cross-browser run): each engine's tests on one worker, so each
    engine is launched once. pytest-xdist 3.8 groups by a suffix it writes into an item's node id, which
    pytest 9 no longer reads back, so that every test went to whichever worker was free (four launches
    for two engines); here the group is the engine the test's id names, e.g. [firefox-desktop-en]."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByEngine(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            engine = re.search(r"\[(firefox|webkit)\b", nodeid)
            return engine[1] if engine else super()._split_scope(nodeid)

    return ByEngine(config, log)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The real trilingual site (`mkdocs build --strict` of mkdocs.yml), built once per session; under
    pytest-xdist once for all the workers of the run: the first to ask builds it, the others wait."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, above each worker's own
    site, done = root / "www" / SUBPATH, root / "www.built"
    with open(root / "www.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            env = dict(os.environ, NO_MKDOCS_2_WARNING="1", SITE_URL=SITE_URL, TINYDAG_ENABLED="true")
            command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
            run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
            if run.returncode != 0:
                pytest.fail(f"mkdocs build --strict failed:\n{run.stdout}\n{run.stderr}", pytrace=False)
            done.touch()
    return site


@pytest.fixture(scope="session")
def site_server(built_site: Path):
    """Serves the built site over http on a free localhost port; yields the site's base URL.

    The base URL ends with the Pages-like subpath, e.g. http://127.0.0.1:41234/tinydag-lesson/.
    """
    with browser_helpers.serving(built_site.parent, f"{SUBPATH}/") as url:
        yield url


# ---- the browser tests share one Chromium per session and a fresh lesson page per test ----

@pytest.fixture(scope="session")
def browser(request):
    return browser_helpers.shared_browser(request)


@pytest.fixture
def lesson(browser, site_server):
    """The English lesson at 1280x800, freshly loaded, its sandbox in view and paused."""
    page = browser_helpers.lesson_page(browser, site_server)
    browser_helpers.paused_in_view(page)
    yield page
    assert page.errors == [], page.errors
