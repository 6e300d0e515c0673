"""The layout the player drew before the layered one (kept only to measure against it in `make bench`):
every variable in the first column, an operation one column right of its rightmost non-constant input, a
constant just left of its operation, barycenter sweeps without keeping the best, rows evenly spaced and
centred in each column."""

from __future__ import annotations

from tinydag.layout import COLUMN_GAP, ROW_GAP, SWEEPS, Position, add_placeholders
from tinydag.trace import VisualNode


def layout_before(nodes: list[VisualNode]
                  ) -> tuple[list[list[str]], dict[str, list[str]], dict[str, Position]]:
    column: dict[str, int] = {}
    for node in nodes:
        inner = [column[i.id] for i in node.inputs if i.op != "const"]
        column[node.id] = 0 if not node.inputs else 1 + max(inner, default=0)
    for node in nodes:
        for i in node.inputs:
            if i.op == "const":
                column[i.id] = column[node.id] - 1
    columns, children, parents = add_placeholders(nodes, column)
    for _ in range(SWEEPS):
        for order, neighbours in ((range(1, len(columns)), children),
                                  (range(len(columns) - 2, -1, -1), parents)):
            for c in order:
                place = {nid: row - (len(col) - 1) / 2 for col in columns for row, nid in enumerate(col)}
                columns[c] = sorted(columns[c], key=lambda nid, p=place, n=neighbours: (
                    sum(p[m] for m in n[nid]) / len(n[nid]) if n[nid] else p[nid]))
    positions: dict[str, Position] = {}
    for c, with_dummies in enumerate(columns):
        col = [nid for nid in with_dummies if nid in column]
        for row, nid in enumerate(col):
            above = (len(col) - 1) / 2 - row
            depth = 0.3 if (c + row) % 2 == 0 else -0.3  # alternating, for some depth when turned
            positions[nid] = Position(c, row, c * COLUMN_GAP, above * ROW_GAP, depth)
    return columns, parents, positions
