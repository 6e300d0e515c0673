"""Where each visual node sits: a layered layout in the manner of Graphviz dot, root on the right.

1. Columns by distance from the root: the root is alone in the last column, and every other node sits
   one column left of its leftmost consumer, so a leaf sits beside the operation it feeds
   (`assign_columns`). An edge that still skips columns gets a placeholder in each column it crosses
   (Sugiyama's dummy nodes: `add_placeholders`).
2. Rows that cut crossings: each column starts in creation order (the order of the expression) and is
   sorted by the barycenter of its neighbours, sweeping right then left; the ordering with the fewest
   crossings is kept (`order_rows`, `count_crossings`).
3. Heights that keep edges short and straight, as a tidy tree draws them: sweeping right, every
   operation moves towards the median height of its inputs (a product centred on its two leaves);
   sweeping left, every node towards the median height of its consumers (a leaf towards what it feeds).
   A column keeps its order and ROW_GAP between its cards (`place_rows`); a placeholder lies where it
   aims, so a long edge runs straight.

Every card lies in one plane, z = 0: the values' plane. Depth belongs to the backward pass, whose edges
the player raises onto a layer of their own (src/player/stage/curves.ts, liftedPoint), so a turned graph
shows gradients running above the values they came from.

Stable sorts, medians and means in a fixed order: the TypeScript mirror repeats every float exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from .trace import VisualNode

COLUMN_GAP = 2.4  # scene units between columns (x)
ROW_GAP = 1.5  # scene units between the cards of one column (y)
SWEEPS = 4  # ordering sweeps (right then left)
SETTLE = 11  # placement sweeps (alternately right and left, ending rightwards)


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
    height = place_rows(columns, children, parents, column)
    return number_rows(columns, column, height)


def assign_columns(nodes: list[VisualNode]) -> dict[str, int]:
    """Longest distance to the root, counted from the right: creation order puts inputs before the
    nodes that use them, so walking it backwards meets every consumer before its inputs."""
    rank: dict[str, int] = {}
    for node in reversed(nodes):
        rank.setdefault(node.id, 0)  # the root, the only node nothing consumes
        for i in node.inputs:
            rank[i.id] = max(rank.get(i.id, 0), rank[node.id] + 1)
    deepest = max(rank.values())
    return {node.id: deepest - rank[node.id] for node in nodes}


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
    """Sort each column by the barycenter of its neighbours, sweeping right then left, SWEEPS times;
    keep the first ordering with the fewest crossings (the expression's own order when it has none)."""
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

    best, fewest = [list(col) for col in columns], count_crossings(columns, parents)
    for _ in range(SWEEPS):
        if fewest == 0:
            break
        sweep(range(1, width), children)
        sweep(range(width - 2, -1, -1), parents)
        crossings = count_crossings(columns, parents)
        if crossings < fewest:
            best, fewest = [list(col) for col in columns], crossings
    columns[:] = best


def count_crossings(columns: list[list[str]], parents: dict[str, list[str]]) -> int:
    """Pairs of edges between neighbouring columns whose ends lie in opposite orders."""
    total = 0
    for c in range(len(columns) - 1):
        right = {nid: row for row, nid in enumerate(columns[c + 1])}
        ends = [(row, right[p]) for row, nid in enumerate(columns[c]) for p in parents[nid]]
        for k, (top, end) in enumerate(ends):
            for other_top, other_end in ends[k + 1:]:
                if (top - other_top) * (end - other_end) < 0:
                    total += 1
    return total


def place_rows(columns: list[list[str]], children: dict[str, list[str]],
               parents: dict[str, list[str]], column: dict[str, int]) -> dict[str, float]:
    """Heights (y, upwards) for every id. Cards start evenly spaced and centred in their column; then,
    a column at a time, each one aims at the median height of its neighbours on the side the sweep comes
    from (inputs sweeping right, consumers sweeping left) and the column's cards take the heights nearest
    their aims that keep the order and ROW_GAP between them (pool adjacent violators); a placeholder
    takes its aim. SETTLE sweeps, the first and the last rightwards (operations over their inputs)."""
    height: dict[str, float] = {}
    for col in columns:
        cards = [nid for nid in col if nid in column]
        for row, nid in enumerate(cards):
            height[nid] = ((len(cards) - 1) / 2 - row) * ROW_GAP
    def aim(nid: str, neighbours: dict[str, list[str]]) -> float:
        near = sorted(height[m] for m in neighbours[nid])
        if not near:
            return height[nid]
        middle = len(near) // 2
        return near[middle] if len(near) % 2 else (near[middle - 1] + near[middle]) / 2

    def settle(c: int, neighbours: dict[str, list[str]]) -> None:
        aims = {nid: aim(nid, neighbours) for nid in columns[c]}
        cards = [nid for nid in columns[c] if nid in column]
        blocks: list[list[float]] = []  # [sum, count] of the aims shifted by their rows' gaps
        for row, nid in enumerate(cards):
            blocks.append([aims[nid] + row * ROW_GAP, 1.0])
            while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] < blocks[-1][0] / blocks[-1][1]:
                total, count = blocks.pop()
                blocks[-1][0] += total
                blocks[-1][1] += count
        row = 0
        for total, count in blocks:
            for _ in range(int(count)):
                height[cards[row]] = total / count - row * ROW_GAP
                row += 1
        for nid in columns[c]:
            if nid not in column:
                height[nid] = aims[nid]

    width = len(columns)
    for s in range(SETTLE):
        for c in range(width) if s % 2 == 0 else range(width - 1, -1, -1):
            settle(c, children if s % 2 == 0 else parents)
    return height


def number_rows(columns: list[list[str]], column: dict[str, int],
                height: dict[str, float]) -> dict[str, Position]:
    """Rows and coordinates of the real nodes, placeholders dropped; the cards' heights centred on 0."""
    cards = [nid for nid in height if nid in column]
    middle = (max(height[nid] for nid in cards) + min(height[nid] for nid in cards)) / 2
    positions: dict[str, Position] = {}
    for c, with_dummies in enumerate(columns):
        col = [nid for nid in with_dummies if nid in column]
        for row, nid in enumerate(col):
            y = height[nid] - middle + 0.0  # never -0.0
            positions[nid] = Position(c, row, c * COLUMN_GAP, y, 0.0)
    return positions
