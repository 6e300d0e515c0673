"""MkDocs plugin: ```tinydag blocks -> precomputed timelines, a static figure and the bundled player.

Hook order within one language build: on_config (strings, the shipped bundle) -> on_files (assets) ->
on_page_markdown (blocks -> timelines, widget fences -> their data; a placeholder stays in the
Markdown) -> on_post_page (the sandbox and widget HTML and the asset tags go into the final page). A
page loads the player only if it has a sandbox, the widgets' bundle only if it has a widget.
static-i18n runs all of that once per language, the English build first; work that does not depend
on the language is done in the English on_config and reused.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

import tinydag
from tinydag.types import Timeline

from .base import strings as ui_strings
from .base.bundle import BundleError, shipped
from .base.comments import Translations, take_translations, translate_listings
from .base.fences import BlockError
from .base.i18n_build import is_translation_build, languages, page_language
from .config import TinyDagConfig
from .sandbox.blocks import Block, Graph, find_blocks
from .sandbox.cache import BuildCache
from .sandbox.embed import frameworks_html, sandbox_html
from .sandbox.exercises import expand_links
from .site import a11y, typography
from .site.deferred import declare_color_schemes
from .site.language import LanguageFeatures, unknown_theme_languages
from .widgets.registry import KINDS, Widget, find_widgets, widget_html
from .widgets.registry import SLOT as WIDGET_SLOT
from .widgets.registry import SLOT_IN_HTML as WIDGET_SLOT_IN_HTML

ASSET_DIR = "assets/tinydag"
FIGURE_CSS = Path(__file__).parent / "assets" / "figure.css"
SLOT = '<div class="tinydag-slot" data-tinydag-slot="{}"></div>'
SLOT_IN_HTML = re.compile(  # in a list or an admonition, Markdown wraps it in a paragraph
    r'(?:<p>\s*)?<div class="tinydag-slot" data-tinydag-slot="(\d+)"></div>(?:\s*</p>)?')


class TinyDagPlugin(BasePlugin[TinyDagConfig]):
    def __init__(self) -> None:
        self.cache = BuildCache()  # timelines and figures by content hash, across builds
        self.root = Path.cwd()
        self.strings: dict[str, dict[str, str]] = {}
        self.assets: dict[str, bytes] = {}  # name under assets/tinydag -> content
        self.versions: dict[str, str] = {}  # name -> short hash, appended to URLs as ?v=
        self.sandboxes: dict[str, list[tuple[str, int]]] = {}  # page dest_uri -> (HTML, block line)
        self.widgets: dict[str, list[tuple[str, int]]] = {}  # page dest_uri -> (HTML, fence line)
        self.comments: dict[str, Translations] = {}  # page dest_uri -> its listings' comments translated
        self.widget_data: dict[tuple[str, str], dict] = {}  # (kind, YAML) -> data, for one build
        self.language = LanguageFeatures()  # notices, typography, hreflang, per-language search

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined so that MkDocs keeps this instance, and its caches, across `mkdocs serve` rebuilds."""

    def wing(self, name: str) -> bool:
        """Whether a wing (sandboxes, widgets, site) runs: `enabled: false` turns all three off."""
        return bool(self.config.enabled and self.config[name].enabled)

    def on_config(self, config: MkDocsConfig) -> None:
        if not self.config.enabled:
            return
        if not is_translation_build(config):
            if self.wing("site"):
                self.language.start()
            problem = unknown_theme_languages(config)
            if problem:
                raise PluginError(problem)
        self.root = Path(config.config_file_path).parent.resolve()
        if is_translation_build(config):
            return  # static-i18n's ru/et builds reuse what the English build prepared
        self.cache.start_build()
        self.widget_data = {}  # the three language builds share it; a new build recomputes
        folder = self.config.strings_dir
        try:
            loaded = ui_strings.load_all(self.root / folder, languages(config), folder)
            self.strings = {lang: {key: typography.typeset_text(text, lang) for key, text in table.items()}
                            for lang, table in loaded.items()}  # translators type plain spaces
        except ui_strings.StringsError as exc:
            raise PluginError(f"UI strings in {folder}/ have problems (en.yml is the reference):\n"
                              f"{exc}") from None
        try:
            player = shipped()  # built output (make bundle): building the site needs no Node
        except BundleError as exc:
            raise PluginError(str(exc)) from None
        self.assets = {**player, "figure.css": FIGURE_CSS.read_bytes()}
        self.versions = {name: hashlib.sha256(content).hexdigest()[:12]
                         for name, content in self.assets.items()}

    # After static-i18n's on_files (-100): it rebuilds the file list per language and crashes on
    # generated files it meets (no source path). Added here, they are written once, at the site root.
    @event_priority(-150)
    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        if not self.config.enabled:
            return files
        for name, content in self.assets.items():
            files.append(File.generated(config, f"{ASSET_DIR}/{name}", content=content))
        return files

    # After static-i18n's own on_page_markdown (50), which only translates admonition titles.
    @event_priority(-50)
    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        if not self.config.enabled:
            return markdown
        path = self._shown_path(page)
        source = page.file.content_string
        front_matter = source.rstrip("\n").count("\n") - markdown.rstrip("\n").count("\n")
        targets: dict[str, list[str]] = {}
        first_line = 1 + max(front_matter, 0)
        self.comments.pop(page.file.dest_uri, None)  # a build `mkdocs serve` broke off may have left it
        try:
            # The listings' comments in the page's language (on_page_content, with the site's wing); the
            # block itself never shows.
            markdown, comments = take_translations(markdown, first_line)
            if comments and self.wing("site"):
                self.comments[page.file.dest_uri] = comments
            blocks = find_blocks(markdown, first_line) if self.wing("sandboxes") else []
            widgets = find_widgets(markdown, first_line) if self.wing("widgets") else []
            if self.wing("sandboxes") and "open-in-sandbox" in markdown:  # exercise links, expanded in place
                markdown, targets = expand_links(markdown, first_line,
                                                 [b.sandbox_id for b in blocks], self._exercise_timeline)
        except BlockError as exc:
            raise PluginError(f"{path}:{exc.line}: {exc.message}") from None
        if not blocks and not widgets:
            return markdown
        lang = page_language(page, config)
        if lang not in self.strings:
            raise PluginError(f"{path}: no UI strings for language '{lang}' in {self.config.strings_dir}")
        rendered = [self._render(block, lang, path, targets.get(block.sandbox_id, [])) for block in blocks]
        try:
            shown = [self._render_widget(widget, lang) for widget in widgets]
        except BlockError as exc:
            raise PluginError(f"{path}:{exc.line}: {exc.message}") from None
        slots = [(b.start, b.end, b.indent + SLOT.format(n)) for n, b in enumerate(blocks, 1)]
        slots += [(w.start, w.end, w.indent + WIDGET_SLOT.format(n)) for n, w in enumerate(widgets, 1)]
        lines = markdown.split("\n")
        for start, end, slot in sorted(slots, reverse=True):  # from the end: indices stay valid
            lines[start:end] = ["", slot, ""]
        if blocks:
            self.sandboxes[page.file.dest_uri] = [(html, b.line) for html, b in zip(rendered, blocks)]
        if widgets:
            self.widgets[page.file.dest_uri] = [(html, w.line) for html, w in zip(shown, widgets)]
        return "\n".join(lines)

    def _render_widget(self, widget: Widget, lang: str) -> str:
        key = (widget.kind, widget.body)
        if key not in self.widget_data:
            self.widget_data[key] = KINDS[widget.kind].data(widget.spec)
        return widget_html(widget, lang, self.widget_data[key], self.strings[lang])

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        if not self.wing("site"):
            return html
        comments = self.comments.pop(page.file.dest_uri, None)
        if comments:
            try:
                html = translate_listings(html, comments)
            except BlockError as exc:
                raise PluginError(f"{self._shown_path(page)}:{exc.line}: {exc.message}") from None
        return self.language.page_content(html, page, config)

    def on_post_template(self, output_content: str, template_name: str, config: MkDocsConfig) -> str:
        if not self.wing("site"):
            return output_content
        return self.language.post_template(output_content, template_name, config)

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        """The sandboxes go in after search has indexed the page: their JSON and SVG are not prose."""
        if not self.config.enabled:
            return output
        if self.wing("site"):
            output = self.language.post_page(output, page, config, self.strings)
            output = declare_color_schemes(a11y.mend(output))
        sandboxes = self.sandboxes.pop(page.file.dest_uri, None) or []
        widgets = self.widgets.pop(page.file.dest_uri, None) or []
        if not sandboxes and not widgets:
            return output
        output = self._place(output, page, SLOT_IN_HTML, sandboxes, "sandbox block")
        output = self._place(output, page, WIDGET_SLOT_IN_HTML, widgets, "widget")
        tags = self._asset_tags(page, bool(sandboxes), bool(widgets))
        return output.replace("</head>", tags + "</head>", 1)

    def _place(self, output: str, page: Page, slots: re.Pattern, rendered: list[tuple[str, int]],
               what: str) -> str:
        placed: set[int] = set()

        def place(match: re.Match) -> str:
            placed.add(int(match[1]))
            return rendered[int(match[1]) - 1][0]

        output = slots.sub(place, output)
        lost = [line for number, (_, line) in enumerate(rendered, 1) if number not in placed]
        if lost:
            raise PluginError(f"{self._shown_path(page)}:{lost[0]}: this {what} did not survive the "
                              "Markdown conversion: it stands inside something that shows its content as "
                              "code or drops HTML (an indented code block?)")
        return output

    # After static-i18n (-100): in the English build its on_post_build builds ru and et and then rewrites
    # the shared search index with every language, so this runs last, once all pages exist.
    @event_priority(-150)
    def on_post_build(self, config: MkDocsConfig) -> None:
        if self.wing("site"):
            self.language.post_build(config)

    def on_serve(self, server, config: MkDocsConfig, builder):
        if self.config.enabled:
            for folder in self.config.watch:
                if (self.root / folder).exists():
                    server.watch(str(self.root / folder))
        return server

    def _render(self, block: Block, lang: str, path: str, targets: list[str]) -> str:
        default = self._timeline(block.default, path)
        presets = [{"label": p.label, "expression": p.expression, "values": p.values,
                    "timeline": self._timeline(p, path)} for p in block.presets]
        strings = self.strings[lang]
        data: dict[str, object] = {"lang": lang, "expression": block.default.expression,
                                   "values": block.default.values, "timeline": default, "presets": presets,
                                   "strings": strings}
        if block.compact:
            data["compact"] = True
        labels = {key: strings[key] for key in ("value", "grad", "derived", "const", "not_reached")}
        # A compact sandbox wakes after the forward pass, waiting for Backward: its figure shows that.
        svg = self.cache.figure(default, labels, id_prefix=block.sandbox_id, backward=not block.compact)
        caption_key = "figure_caption_forward" if block.compact else "figure_caption"
        caption = strings[caption_key].replace("{expression}", block.default.expression)
        panel = "" if block.compact else frameworks_html(default, strings, block.sandbox_id)
        return sandbox_html(block.sandbox_id, lang, data, svg, caption, strings["no_webgl"],
                            compact=block.compact, targets=targets, panel=panel)

    def _exercise_timeline(self, expression: str, values: dict[str, float], line: int) -> dict:
        try:
            return dict(self.cache.timeline(expression, values))
        except tinydag.TinyDagError as error:
            raise BlockError(line, f"the exercise link's setup does not compute: {error.message} "
                             f'(expression "{expression}")') from None

    def _timeline(self, graph: Graph, path: str) -> Timeline:
        try:
            timeline = self.cache.timeline(graph.expression, graph.values)
        except tinydag.TinyDagError as error:
            numeric = error.code in ("domain", "overflow")  # caused by the values, not the text
            where = ""
            if error.start is not None and error.end is not None and error.end > error.start:
                where = f' at "{graph.expression[error.start:error.end]}"'
            raise PluginError(f"{path}:{graph.values_line if numeric else graph.line}: {error.message} "
                              f'(expression "{graph.expression}"{where})') from None
        unused = sorted(set(graph.values) - {v["name"] for v in timeline["variables"]})
        if unused:
            raise PluginError(f"{path}:{graph.values_line}: `values` sets {', '.join(unused)}, which "
                              f'the expression "{graph.expression}" does not use')
        return timeline

    def _asset_tags(self, page: Page, sandboxes: bool, widgets: bool) -> str:
        """Only what the page uses: the player for sandboxes, the widgets' bundle for widgets."""
        def url(name: str) -> str:
            return f"{get_relative_url(f'{ASSET_DIR}/{name}', page.url)}?v={self.versions[name]}"

        styles = [*(("player.css", "figure.css") if sandboxes else ()),
                  *(("widgets.css",) if widgets else ())]
        tags = [f'<link rel="stylesheet" href="{url(name)}">' for name in styles if name in self.assets]
        # Each script starts on load; the player loads its engine (engine.js) when a change needs it.
        engine = f' data-engine="{url("engine.js")}"' if "engine.js" in self.assets else ""
        scripts = [*(("player.js",) if sandboxes else ()), *(("widgets.js",) if widgets else ())]
        tags += [f'<script src="{url(name)}"{engine if name == "player.js" else ""} async></script>'
                 for name in scripts]
        return "".join(tags)

    def _shown_path(self, page: Page) -> str:
        """The page's source as an author sees it: relative to mkdocs.yml when possible."""
        source = Path(page.file.abs_src_path or page.file.src_uri)
        try:
            return source.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return source.as_posix()
