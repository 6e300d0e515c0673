"""Rows of the benchmark table, their budgets, and how they print."""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass
class Row:
    section: str  # Build, Page weight, Engines, Browser
    metric: str
    value: float | str
    unit: str
    budget: str = ""  # human-readable, e.g. "<= 60 KB"
    holds: bool | None = None  # None: no budget for this row


def median(samples: list[float]) -> float:
    return statistics.median(samples)


def machine() -> dict[str, str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    chromium = subprocess.run(["/usr/bin/chromium", "--version"], capture_output=True,
                              text=True).stdout.strip() if Path("/usr/bin/chromium").exists() else "-"
    return {"cpu": cpu, "cores": str(os.cpu_count()), "python": platform.python_version(),
            "node": node, "chromium": chromium, "os": platform.platform()}


def render(rows: list[Row], info: dict[str, str]) -> str:
    def fmt(v: float | str) -> str:
        if isinstance(v, str):
            return v
        return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"

    lines = [f"Machine: {info['cpu']}, {info['cores']} cores; Python {info['python']}, "
             f"Node {info['node']}, {info['chromium']}", "",
             "| Section | Metric | Value | Budget | Holds |", "|---|---|---|---|---|"]
    for r in rows:
        holds = "" if r.holds is None else ("yes" if r.holds else "**no**")
        lines.append(f"| {r.section} | {r.metric} | {fmt(r.value)} {r.unit} | {r.budget} | {holds} |")
    return "\n".join(lines)


def save(rows: list[Row], info: dict[str, str], folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "latest.json"
    path.write_text(json.dumps({"machine": info, "rows": [asdict(r) for r in rows]}, indent=2))
    (folder / "latest.md").write_text(render(rows, info) + "\n")
    return path
