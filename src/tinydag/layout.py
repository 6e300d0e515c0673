"""Where each visual node sits: columns left to right, rows ordered to reduce crossings.

Variables are in column 0; an operation sits one column right of its rightmost
non-constant input; a constant sits just left of the operation that uses it.
The root is therefore alone in the last column. Within a column, rows start in
creation order and are then sorted by the barycenter of their neighbours
(stable sorts, fixed sweep count), which the TypeScript mirror repeats exactly.
Long edges take part through placeholders that are dropped before rows are numbered.
"""

from __future__ import annotations

from dataclasses import dataclass

from .trace import VisualNode

COLUMN_GAP = 2.4  # scene units between columns (x)
ROW_GAP = 1.5  # scene units between rows (y)
DEPTH = 0.3  # z offset, alternating, so the scene has some depth when rotated
SWEEPS = 4


@dataclass(frozen=True)
class Position:
    column: int
    row: int
    x: float
    y: float
    z: float


def layout(nodes: list[VisualNode]) -> dict[str, Position]:
    column = assign_columns(nodes)
    columns, children, parents = add_placeholders(nodes, column)
    order_rows(columns, children, parents)
    return number_rows(columns, column)


def assign_columns(nodes: list[VisualNode]) -> dict[str, int]:
    column: dict[str, int] = {}
    for node in nodes:  # creation order: inputs before the node
        inner = [column[i.id] for i in node.inputs if i.op != "const"]
        column[node.id] = 0 if not node.inputs else 1 + max(inner, default=0)
    for node in nodes:
        for i in node.inputs:
            if i.op == "const":
                column[i.id] = column[node.id] - 1
    return column


def add_placeholders(nodes: list[VisualNode], column: dict[str, int]
                     ) -> tuple[list[list[str]], dict[str, list[str]], dict[str, list[str]]]:
    """The node ids per column, and each one's neighbours one column left (children) and right
    (parents). An edge that skips columns gets a placeholder in each column it crosses (Sugiyama's
    dummy nodes), so the sweeps see it and do not let it cut through the middle of the graph."""
    columns: list[list[str]] = [[] for _ in range(1 + max(column.values()))]
    for node in nodes:
        columns[column[node.id]].append(node.id)
    children: dict[str, list[str]] = {n.id: [] for n in nodes}
    parents: dict[str, list[str]] = {n.id: [] for n in nodes}
    for node in nodes:
        for slot, i in enumerate(node.inputs):
            lower = i.id
            for c in range(column[i.id] + 1, column[node.id]):
                dummy = f"{i.id}>{node.id}.{slot}@{c}"
                columns[c].append(dummy)
                children[dummy], parents[dummy] = [], []
                parents[lower].append(dummy)
                children[dummy].append(lower)
                lower = dummy
            parents[lower].append(node.id)
            children[node.id].append(lower)
    return columns, children, parents


def order_rows(columns: list[list[str]], children: dict[str, list[str]],
               parents: dict[str, list[str]]) -> None:
    """Sort each column by the barycenter of its neighbours, sweeping right then left, SWEEPS times."""
    width = len(columns)

    def centered() -> dict[str, float]:
        return {nid: row - (len(col) - 1) / 2 for col in columns for row, nid in enumerate(col)}

    def sweep(order: range, neighbours: dict[str, list[str]]) -> None:
        for c in order:
            place = centered()

            def key(nid: str, place: dict[str, float] = place) -> float:
                near = neighbours[nid]
                return sum(place[m] for m in near) / len(near) if near else place[nid]

            columns[c] = sorted(columns[c], key=key)

    for _ in range(SWEEPS):
        sweep(range(1, width), children)
        sweep(range(width - 2, -1, -1), parents)


def number_rows(columns: list[list[str]], column: dict[str, int]) -> dict[str, Position]:
    """Rows and coordinates of the real nodes, placeholders dropped."""
    positions: dict[str, Position] = {}
    for c, with_dummies in enumerate(columns):
        col = [nid for nid in with_dummies if nid in column]
        for row, nid in enumerate(col):
            above = (len(col) - 1) / 2 - row  # rows run downwards, y upwards; never -0.0
            positions[nid] = Position(c, row, c * COLUMN_GAP, above * ROW_GAP,
                                      DEPTH if (c + row) % 2 == 0 else -DEPTH)
    return positions
