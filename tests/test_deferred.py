"""The page's first load: colour schemes declared up front, the listing rendered with the page
(plugins/tinydag_mkdocs/site/deferred.py)."""

from tinydag_mkdocs.site.deferred import declare_color_schemes

LESSONS = ("02-autograd/index.html", "ru/02-autograd/index.html", "et/02-autograd/index.html")


def test_no_listing_is_skipped_by_the_browser(built_site):
    """A skipped (content-visibility) code block changes size when Gecko first renders it, and with
    Material's observers Firefox then reports a ResizeObserver loop on a resize or a jump over it."""
    for path in LESSONS:
        html = (built_site / path).read_text(encoding="utf-8")
        assert "language-python highlight" in html and "content-visibility" not in html, path


def test_every_page_declares_its_colour_schemes_before_material_does(built_site):
    """Material's palette adds its own color-scheme meta at start-up; ours, first in the head, keeps
    that from changing the document's colour scheme (a whole-page restyle in the load's long task)."""
    pages = [p for p in built_site.rglob("index.html") if "assets" not in p.parts]
    assert len(pages) >= 9
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert html.count('name="color-scheme"') == 1, page
        assert html.index('<meta name="color-scheme" content="light dark">') < html.index("<link"), page
    assert declare_color_schemes("<html><head><title>t</title></head></html>").startswith(
        '<html><head><meta name="color-scheme" content="light dark"><title>')
    once = declare_color_schemes("<head></head>")
    assert declare_color_schemes(once) == once
