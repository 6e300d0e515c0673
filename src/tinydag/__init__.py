"""tinydag: an expression -> a traced DAG -> its layout -> forward and backward pulse timelines."""

from __future__ import annotations

import hashlib
from pathlib import Path

import microgpt_annotated

from .errors import TinyDagError
from .timeline import build_timeline, dumps

# The engine's modules in dependency order (what a reload of a changed engine re-runs, this package
# last); the lesson's Value class comes first. tests/test_engine.py checks that every module is here.
MODULES = ("microgpt_annotated", "tinydag.errors", "tinydag.types", "tinydag.ops", "tinydag.parse",
           "tinydag.trace", "tinydag.layout", "tinydag.timeline", "tinydag.frameworks", "tinydag.cli",
           "tinydag")


def source_digest() -> str:
    """A hash of the engine's source: this package's Python files and the lesson's Value class.

    Whatever caches the engine's results keys them by it, so an edit anywhere in the engine (a new
    module included) makes them stale.
    """
    h = hashlib.sha256()
    for path in [*sorted(Path(__file__).parent.glob("*.py")), Path(microgpt_annotated.__file__)]:
        h.update(f"{path.name}\0{path.stat().st_size}\0".encode())
        h.update(path.read_bytes())
    return h.hexdigest()


__all__ = ["MODULES", "TinyDagError", "build_timeline", "dumps", "source_digest"]
