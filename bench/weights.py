"""Page weight without a browser: the gzip size of each bundle and of the JavaScript each page loads
beyond Material (the player only on pages with a sandbox, the widgets only on pages with a widget).

The budget: at most 60 KB gzip of our own JavaScript on any page.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from .site import built_site
from .table import Row

ROOT = Path(__file__).resolve().parents[1]
BUDGET_KB = 60
SCRIPT = re.compile(r'<script\b[^>]*\bsrc="([^"]+)"')
MATERIAL = ("assets/javascripts/",)  # the theme's own bundle and its workers


def gzip_size(data: bytes) -> int:
    return len(gzip.compress(data, 9, mtime=0))


def own_scripts(page: Path, site: Path) -> list[Path]:
    """The local scripts `page` loads that are not Material's, as files of the built site."""
    found = []
    for src in SCRIPT.findall(page.read_text(encoding="utf-8")):
        if "://" in src or src.startswith("//") or any(part in src for part in MATERIAL):
            continue  # off-site (there should be none) or the theme's
        path = (page.parent / src.split("?")[0]).resolve()
        if site.resolve() in path.parents:
            found.append(path)
    return found


def page_weights(site: Path, pages: list[str]) -> list[Row]:
    """Rows for the shipped bundles and for the own JavaScript of each page in `pages` (paths in site)."""
    rows = []
    assets = site / "assets" / "tinydag"
    for name in ("player.js", "widgets.js", "widgets.css"):
        if (assets / name).is_file():
            rows.append(Row("Page weight", f"{name} (gzip)", gzip_size((assets / name).read_bytes()) / 1024,
                            "KB"))
    for name in pages:
        scripts = own_scripts(site / name, site)
        total = sum(gzip_size(path.read_bytes()) for path in scripts) / 1024
        loaded = ", ".join(path.name for path in scripts) or "none"
        rows.append(Row("Page weight", f"own JS on {name} ({loaded}; gzip)", total, "KB",
                        f"<= {BUDGET_KB} KB", total <= BUDGET_KB))
    return rows


def bench_weights() -> list[Row]:
    with built_site() as site:
        pages = sorted(str(p.relative_to(site)) for p in site.glob("*/index.html") if p.parent.name not in
                       ("ru", "et", "search", "assets"))
        return page_weights(site, ["index.html", *pages])
