"""The engine side of the adapter: tinydag's timelines and figures, each computed once per content.

static-i18n builds the site three times with the same plugin instance, and the three pages of a
lesson carry the same expressions: results are kept by a hash of (engine source, input), so each
distinct block is computed once per build, and `mkdocs serve` recomputes only what changed.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from pathlib import Path

import tinydag
import tinydag.figure

# Reloaded in this order when their source changes under `mkdocs serve` (which keeps modules loaded).
ENGINE_MODULES = ("microgpt_annotated", "tinydag.errors", "tinydag.parse", "tinydag.trace",
                  "tinydag.layout", "tinydag.timeline", "tinydag.figure", "tinydag")


def engine_digest() -> str:
    h = hashlib.sha256()
    for name in ENGINE_MODULES:
        h.update(Path(sys.modules[name].__file__).read_bytes())
    return h.hexdigest()


class Engine:
    def __init__(self) -> None:
        self.digest = engine_digest()
        self.timelines: dict[str, dict | tinydag.TinyDagError] = {}
        self.figures: dict[str, str] = {}
        self.used: set[str] = set()  # keys used since the last start_build()
        self.runs = 0  # engine calls, for the tests of the cache

    def start_build(self) -> None:
        """A new site build (all languages): reload a changed engine, forget unused results."""
        digest = engine_digest()
        if digest != self.digest:
            for name in ENGINE_MODULES:
                importlib.reload(sys.modules[name])
            self.digest = engine_digest()
            self.timelines.clear()
            self.figures.clear()
        for cache in (self.timelines, self.figures):
            for key in [k for k in cache if k not in self.used]:
                del cache[key]
        self.used = set()

    def timeline(self, expression: str, values: dict[str, float]) -> dict:
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

    def figure(self, timeline: dict, labels: dict[str, str], id_prefix: str) -> str:
        key = self._key("figure", timeline, labels, id_prefix)
        self.used.add(key)
        if key not in self.figures:
            self.figures[key] = tinydag.figure.render_svg(timeline, labels, id_prefix)
        return self.figures[key]

    def _key(self, *parts: object) -> str:
        text = json.dumps([self.digest, *parts], ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()
