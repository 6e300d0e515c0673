"""When a file, and each of its lines, last changed: asked of git (the translation notices and
`make i18n-status` compare a translation's age with its source's)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

# A commit that changes how the English says something but not what it says (a typo, typography, a
# number's notation) says so with this line of its own in its message: it is not counted as a change,
# so the translations are not marked older than it (README, "For translators"). Walkthrough 29: the
# English lesson's "±1,000,000" written "±10⁶" put "the English original has changed" on both
# translations.
UNAFFECTED = "Translations: unaffected"
_MARKED = ("--fixed-strings", f"--grep={UNAFFECTED}")


class Git:
    """Commit times of files and of lines, asked in the file's own folder (symlinks resolved); a commit
    marked UNAFFECTED does not count."""

    def _run(self, path: Path, *args: str) -> str | None:
        try:
            done = subprocess.run(["git", *args, "--", path.name], cwd=path.parent,
                                  capture_output=True, text=True, check=False)
        except OSError:
            return None  # no git at all
        return done.stdout.strip() if done.returncode == 0 else None

    def file_time(self, path: Path) -> float:
        """When the file last changed: its last commit, or its mtime if edited since (or untracked)."""
        path = path.resolve()
        if not self._run(path, "status", "--porcelain"):
            stamp = self._run(path, "log", "-1", "--format=%ct", "--invert-grep", *_MARKED)
            if stamp:
                return float(stamp)
        return path.stat().st_mtime

    def line_times(self, path: Path) -> list[float] | None:
        """Per line (0-based), when it last changed; uncommitted lines count as now."""
        path = path.resolve()
        marked = (self._run(path, "log", "--format=%H", *_MARKED) or "").split()
        out = self._run(path, "blame", "--line-porcelain", *(f"--ignore-rev={sha}" for sha in marked))
        if out is None:
            return None  # not in git, or untracked: no per-line ages
        times: list[float] = []
        current = time.time()
        for line in out.splitlines():
            if line.startswith("committer-time "):
                current = float(line.split()[1])
            elif line.startswith("\t"):
                times.append(current)
        return times
