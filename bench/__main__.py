"""`make bench`: build, page weight, engines, browser and Lighthouse figures in one table.

Every figure is a median of repeated runs; ratios are measured side by side in the same run.
The table prints to stdout and is saved as bench/results/latest.json (and .md).
Select sections with arguments, e.g. `python -m bench engines browser`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .table import Row, machine, render, save

SECTIONS = ("build", "weights", "engines", "layout", "browser", "playback", "lighthouse")


def main(argv: list[str]) -> int:
    wanted = argv or list(SECTIONS)
    rows: list[Row] = []
    for name in wanted:
        if name == "build":
            from .build import bench_build
            rows += bench_build()
        elif name == "weights":
            from .weights import bench_weights
            rows += bench_weights()
        elif name == "engines":
            from .engines import bench_engines
            rows += bench_engines()
        elif name == "layout":
            from .layouts import bench_layouts
            rows += bench_layouts()
        elif name == "browser":
            from .browser import bench_browser
            rows += bench_browser()
        elif name == "playback":
            from .playback import bench_playback
            rows += bench_playback()
        elif name == "lighthouse":
            from .lighthouse import bench_lighthouse
            rows += bench_lighthouse()
        else:
            print(f"unknown section {name!r}; choose from {', '.join(SECTIONS)}", file=sys.stderr)
            return 64
        print(f"[bench] {name} done", file=sys.stderr)
    info = machine()
    print(render(rows, info))
    path = save(rows, info, Path(__file__).parent / "results")
    print(f"\n(saved to {path})")
    return 0


sys.exit(main(sys.argv[1:]))
