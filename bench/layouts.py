"""The layout beside a peer: edge crossings and mean edge length of ours, of the layout before it
(all variables in the first column, rows centred) and of @dagrejs/dagre on the same graphs.

Crossings are counted between neighbouring columns (ranks), an edge that skips columns taking part in
every column it crosses (through its placeholders, or dagre's bend points): two edges cross when their
ends lie in opposite orders on both sides. Edge length is the straight distance between the centres of
the two cards, in scene units (a column is 2.4 apart, a card 1.5 wide); dagre is given the same card size
and the same gaps between cards and columns.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

from .table import Row

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from tinydag import build_timeline  # noqa: E402
from tinydag.layout import (  # noqa: E402
    COLUMN_GAP,
    ROW_GAP,
    add_placeholders,
    assign_columns,
    count_crossings,
    order_rows,
)
from tinydag.trace import trace  # noqa: E402

from .layout_before import layout_before  # noqa: E402

CARD = {"width": 1.5, "height": 0.9}  # scene units, as the player draws a card (fit.ts, curves.ts)
GRAPHS = {  # the lesson's six presets, then three big graphs and the 40-node bench expression
    "preset: sum times a factor": "(a + b) * c",
    "preset: dead ReLU": "relu(a * b)",
    "preset: a variable used twice": "a * a",
    "preset: derived operations": "(a - b) / c",
    "preset: exp and log": "log(exp(a) + b ** 2)",
    "preset: a small neuron": "relu(w * x + v * y + b)",
    "27-node mixed": "relu(w * x + v * y + b) * relu(a * c - d) + exp(e / f) * log(g + h)",
    "40 nodes, ten products summed": "relu(a*b + c*d + e*f + g*h + k*m + n*p + q*r + s*t + u*v + w*x)",
    "39-factor product": " * ".join(["a"] * 39),
    "40 nodes, every operation, shared variables": (
        "relu(a * b + c * d - e / f) * exp(g - h) + log(a * a + 1) ** 2 - (b - c) / (d + 2)"
        " + relu(-e * f) * (g + h * 0.5) - exp(-a) * b"),
}


def _mean_length(centres: dict[str, tuple[float, float]], edges: list[dict]) -> float:
    return statistics.fmean(((centres[e["from"]][0] - centres[e["to"]][0]) ** 2
                             + (centres[e["from"]][1] - centres[e["to"]][1]) ** 2) ** 0.5 for e in edges)


def ours(nodes: list, t: dict) -> tuple[int, float]:
    """Crossings of the ordering the layout keeps (its first two stages again), and the timeline's lengths."""
    column = assign_columns(nodes)
    columns, children, parents = add_placeholders(nodes, column)
    order_rows(columns, children, parents)
    centres = {n["id"]: (n["x"], n["y"]) for n in t["nodes"]}
    return count_crossings(columns, parents), _mean_length(centres, t["edges"])


def before(nodes: list, t: dict) -> tuple[int, float]:
    columns, parents, positions = layout_before(nodes)
    centres = {nid: (p.x, p.y) for nid, p in positions.items()}
    return count_crossings(columns, parents), _mean_length(centres, t["edges"])


def dagre_crossings(result: dict, edges: list[dict]) -> int:
    """dagre's ranks are its distinct x; an edge's height at a rank it crosses is its bend point there."""
    ranks = sorted({round(x, 6) for x, _ in result["nodes"].values()})
    at: list[dict[int, float]] = []  # per edge: rank -> height
    for e in edges:
        (x0, y0), (x1, y1) = result["nodes"][e["from"]], result["nodes"][e["to"]]
        heights = {ranks.index(round(x0, 6)): y0, ranks.index(round(x1, 6)): y1}
        for x, y in result["edges"][e["id"]]:
            if round(x, 6) in ranks and ranks.index(round(x, 6)) not in heights:
                heights[ranks.index(round(x, 6))] = y
        at.append(heights)
    total = 0
    for r in range(len(ranks) - 1):
        spans = [(h[r], h[r + 1]) for h in at if r in h and r + 1 in h]
        total += sum(1 for k, (a0, a1) in enumerate(spans) for b0, b1 in spans[k + 1:]
                     if (a0 - b0) * (a1 - b1) < 0)
    return total


def run_dagre(timelines: list[dict]) -> list[dict]:
    graphs = [{"nodes": [{"id": n["id"]} for n in t["nodes"]], "edges": t["edges"]} for t in timelines]
    payload = {"graphs": graphs, "card": CARD,
               "gaps": {"row": ROW_GAP - CARD["height"], "column": COLUMN_GAP - CARD["width"]}}
    done = subprocess.run(["node", "bench/dagre.mjs"], cwd=ROOT, input=json.dumps(payload), check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout)


def bench_layouts() -> list[Row]:
    timelines = [build_timeline(expression, {}) for expression in GRAPHS.values()]
    peers = run_dagre(timelines)
    rows: list[Row] = []
    for (name, expression), t, peer in zip(GRAPHS.items(), timelines, peers, strict=True):
        nodes = trace(expression, {}).nodes
        crossings, length = ours(nodes, t)
        old_crossings, old_length = before(nodes, t)
        centres = {nid: (x, -y) for nid, (x, y) in peer["nodes"].items()}
        peer_crossings = dagre_crossings(peer, t["edges"])
        rows.append(Row("Layout", f"{name} ({len(t['nodes'])} nodes): crossings, ours", crossings, "",
                        f"<= dagre's {peer_crossings}", crossings <= peer_crossings))
        rows.append(Row("Layout", "  crossings: before / dagre", f"{old_crossings} / {peer_crossings}", ""))
        rows.append(Row("Layout", "  mean edge length: ours / before / dagre",
                        f"{length:.2f} / {old_length:.2f} / {_mean_length(centres, t['edges']):.2f}",
                        "scene units"))
    return rows
