"""Build time of the trilingual site with the tinydag plugin enabled and disabled."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path

from .table import Row, median

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5


def build_once(enabled: bool, out: Path) -> float:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", TINYDAG_ENABLED="true" if enabled else "false")
    started = time.perf_counter()
    subprocess.run([str(ROOT / ".venv/bin/mkdocs"), "build", "--strict", "--quiet", "--site-dir",
                    str(out)], cwd=ROOT, env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def bench_build() -> list[Row]:
    on: list[float] = []
    off: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        build_once(True, Path(tmp) / "warm")  # first build fills OS caches and the esbuild cache
        for i in range(RUNS):  # interleaved, so drift on a shared machine hits both alike
            on.append(build_once(True, Path(tmp) / f"on{i}"))
            off.append(build_once(False, Path(tmp) / f"off{i}"))
    ratio = median(on) / median(off)
    return [
        Row("Build", "mkdocs build --strict, plugin enabled (median of 5)", median(on), "s"),
        Row("Build", "mkdocs build --strict, plugin disabled (median of 5)", median(off), "s"),
        Row("Build", "plugin overhead", (ratio - 1) * 100, "%", "<= 30 %", ratio <= 1.30),
    ]
