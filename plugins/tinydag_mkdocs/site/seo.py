"""A clean page load for readers and search engines: absolute hreflang links, and no 404 for sitemaps.

1. static-i18n writes each page's `<link rel="alternate" hreflang>` relative to the site root
   ("/repo/ru/02-autograd/"); search engines want absolute URLs. With `site_url` set they become
   absolute, resolved against the page's canonical URL.
2. Material's language integration fetches `sitemap.xml` *beside every alternate URL* (it expects
   the alternates to be language roots). static-i18n's alternates are the page's translations, so
   every page asked for `<page folder>/sitemap.xml` and got a 404 (and a console error) three times.
   The site's sitemap, which already lists every page with its translations, is published in each
   page folder too, so those requests are answered.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin

ALTERNATE = re.compile(r'<link rel="alternate" href="([^"]*)" hreflang="([^"]+)">')


def absolute_alternates(html: str, canonical_url: str | None) -> str:
    """hreflang links as absolute URLs; unchanged without a site_url (no canonical URL then)."""
    if not canonical_url or not canonical_url.startswith(("http://", "https://")):
        return html
    return ALTERNATE.sub(lambda m: f'<link rel="alternate" href="{urljoin(canonical_url, m[1])}" '
                                   f'hreflang="{m[2]}">', html)


def sitemap_beside_pages(site_dir: Path, page_dirs: set[str]) -> None:
    """Copy the root sitemap.xml into every page folder (dest dirs relative to site_dir)."""
    root = site_dir / "sitemap.xml"
    if not root.is_file():
        return
    content = root.read_bytes()
    for folder in page_dirs:
        target = site_dir / folder / "sitemap.xml"
        if folder in ("", ".") or not target.parent.is_dir():
            continue
        target.write_bytes(content)
