"""Engines side by side: the TypeScript mirror under node and the Python engine, same cases."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .table import Row

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = ROOT / ".build/bench/engine.mjs"


def run_typescript() -> dict:
    subprocess.run(["npx", "esbuild", "bench/engine.ts", "--bundle", "--platform=node", "--format=esm",
                    f"--outfile={BUNDLE}", "--log-level=warning"], cwd=ROOT, check=True)
    done = subprocess.run(["node", str(BUNDLE)], cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def run_python() -> dict:
    done = subprocess.run([sys.executable, "bench/engine_py.py"], cwd=ROOT, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout)


def _backward(result: dict, kind: str) -> float | str:
    entry = result[kind]
    return entry["median_ms"] if entry.get("survived", True) else "crashed (recursion depth)"


def bench_engines() -> list[Row]:
    ts, py = run_typescript(), run_python()
    rows: list[Row] = []
    for case, title in (("default", "default preset"), ("forty_nodes", "40-node expression")):
        t = ts["pipeline"][case]["total"]["median_ms"]
        p = py["pipeline"][case]["total"]["median_ms"]
        budget = "well under 1 ms (TS)" if case == "forty_nodes" else ""
        rows.append(Row("Engines", f"parse→trace→layout→timeline, {title}: TypeScript", t * 1000, "µs",
                        budget, t < 1.0 if budget else None))
        rows.append(Row("Engines", f"parse→trace→layout→timeline, {title}: Python", p * 1000, "µs"))
        rows.append(Row("Engines", f"  ratio TS / Python, {title}", t / p, "×"))
    # The deepest graph the engine lets through: backward()'s recursive build(v) at its 79 levels.
    for name, result in (("TypeScript", ts), ("Python", py)):
        deepest = _backward(result["backward"], "deepest")
        rows.append(Row("Engines", f"backward(), deepest graph allowed (40 nodes, 79 Values deep): {name}",
                        deepest * 1000 if isinstance(deepest, float) else deepest,
                        "µs" if isinstance(deepest, float) else ""))
    # Throughput far beyond the lesson's graphs, only 17 levels deep, beside micrograd's shape.
    title = "100,000 products summed (wide, 17 levels deep)"
    for name, result in (("TypeScript", ts), ("Python", py)):
        ours = _backward(result["backward"], "wide")
        peer = _backward(result["peer"], "wide")
        rows.append(Row("Engines", f"backward(), {title}: {name}", ours,
                        "ms" if isinstance(ours, float) else ""))
        rows.append(Row("Engines", f"  micrograd-style peer (set of children, closures), same graph: {name}",
                        peer, "ms" if isinstance(peer, float) else ""))
    return rows
