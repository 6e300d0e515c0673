"""The one error type of tinydag: a code a program can switch on, a message a learner can read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from .types import ErrorCode, ErrorPayload, ErrorResult

MAX_CHARS = 200  # longer input would not fit on a screen anyway
MAX_NODES = 40  # more visual nodes than this make the graph unreadable

CODES: tuple[ErrorCode, ...] = ("syntax", "unknown-function", "variable-exponent", "domain", "overflow",
                                "too-large")


@dataclass
class TinyDagError(Exception):
    code: ErrorCode  # one of CODES
    message: str  # English text for a learner; the player localizes by code and params
    start: int | None = None  # span in the expression (code points) of the offending text
    end: int | None = None
    node: str | None = None  # id of the offending visual node, for numeric errors
    params: dict[str, str] = field(default_factory=dict)  # values the localized message needs

    def __post_init__(self) -> None:
        assert self.code in CODES, self.code
        super().__init__(self.message)

    def to_json(self) -> ErrorResult:
        error: ErrorPayload = {"code": self.code, "message": self.message, "params": dict(self.params)}
        if self.start is not None:
            error["start"], error["end"] = self.start, cast(int, self.end)
        if self.node is not None:
            error["node"] = self.node
        return {"error": error}
