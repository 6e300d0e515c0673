"""tinydag: an expression -> a traced DAG -> its layout -> forward and backward pulse timelines."""

from .errors import TinyDagError
from .timeline import build_timeline, dumps

__all__ = ["TinyDagError", "build_timeline", "dumps"]
