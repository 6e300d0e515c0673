"""The plugin's build cache: tinydag's timelines and the static figures, each computed once per content.

static-i18n builds the site three times with the same plugin instance, and the three pages of a
lesson carry the same expressions: results are kept by a hash of (engine source, input), so each
distinct block is computed once per build, and `mkdocs serve` recomputes only what changed. The key
is the engine's own `tinydag.source_digest()`; when it changes, the engine's modules are reloaded
(`mkdocs serve` keeps modules loaded) in the order the engine gives (`tinydag.MODULES`).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys

import tinydag
from tinydag.types import Timeline

from . import figure


def reload_engine() -> None:
    for name in tinydag.MODULES:
        if name in sys.modules:
            importlib.reload(sys.modules[name])


class BuildCache:
    def __init__(self) -> None:
        self.digest = tinydag.source_digest()
        self.timelines: dict[str, Timeline | tinydag.TinyDagError] = {}
        self.figures: dict[str, str] = {}
        self.used: set[str] = set()  # keys used since the last start_build()
        self.runs = 0  # engine calls, for the tests of the cache

    def start_build(self) -> None:
        """A new site build (all languages): reload a changed engine, forget unused results."""
        digest = tinydag.source_digest()
        if digest != self.digest:
            reload_engine()
            self.digest = digest
            self.timelines.clear()
            self.figures.clear()
        for cache in (self.timelines, self.figures):
            for key in [k for k in cache if k not in self.used]:
                del cache[key]
        self.used = set()

    def timeline(self, expression: str, values: dict[str, float]) -> Timeline:
        """tinydag.build_timeline, cached; raises tinydag.TinyDagError (cached too)."""
        key = self._key("timeline", expression, sorted(values.items()))
        self.used.add(key)
        if key not in self.timelines:
            self.runs += 1
            try:
                self.timelines[key] = tinydag.build_timeline(expression, values)
            except tinydag.TinyDagError as error:
                self.timelines[key] = error
        result = self.timelines[key]
        if isinstance(result, Exception):
            raise result
        return result

    def figure(self, timeline: Timeline, labels: dict[str, str], id_prefix: str,
               backward: bool = True) -> str:
        key = self._key("figure", timeline, labels, id_prefix, backward)
        self.used.add(key)
        if key not in self.figures:
            self.figures[key] = figure.render_svg(timeline, labels, id_prefix, backward)
        return self.figures[key]

    def _key(self, *parts: object) -> str:
        text = json.dumps([self.digest, *parts], ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()
