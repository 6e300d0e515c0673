"""When a file, and each of its lines, last changed: asked of git (the translation notices and
`make i18n-status` compare a translation's age with its source's)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

# A commit that changes how the English says something but not what it says (a typo, typography, a
# number's notation) says so with this line, alone, in its message: it is not counted as a change of
# the English files it touches, so the translations are not marked older than it (README, "For
# translators"); a translation changed in it is dated by it as by any other commit.
# Walkthrough 29: the English lesson's "±1,000,000" written "±10⁶" put "the English original has
# changed" on both translations.
UNAFFECTED = "Translations: unaffected"
_MARKED = (f"--grep=^{UNAFFECTED} *$",)  # the line alone: a message that quotes it is not marked


class Git:
    """Commit times of files and of lines, asked in the file's own folder (symlinks resolved). For a
    source (`source=True`: the English page or strings), a commit marked UNAFFECTED does not count; for
    a translation every commit does (review 59: a translation brought up to date in a marked commit,
    with an English typo, stayed "older")."""

    def _run(self, path: Path, *args: str) -> str | None:
        try:
            done = subprocess.run(["git", *args, "--", path.name], cwd=path.parent,
                                  capture_output=True, text=True, check=False)
        except OSError:
            return None  # no git at all
        return done.stdout.strip() if done.returncode == 0 else None

    def file_time(self, path: Path, source: bool = False) -> float:
        """When the file last changed: its last commit, or its mtime if edited since (or untracked). A
        source whose every commit is marked dates from its first (review 59: its mtime, a fresh
        checkout's, put a notice on every translation)."""
        path = path.resolve()
        if not self._run(path, "status", "--porcelain"):
            if not source:
                stamp = self._run(path, "log", "-1", "--format=%ct")
            else:
                stamp = self._run(path, "log", "-1", "--format=%ct", "--invert-grep", *_MARKED)
                if stamp == "":  # every commit marked
                    stamp = (self._run(path, "log", "--format=%ct", "--reverse") or "").partition("\n")[0]
            if stamp:
                return float(stamp)
        return path.stat().st_mtime

    def line_times(self, path: Path, source: bool = False) -> list[float] | None:
        """Per line (0-based), when it last changed; uncommitted lines count as now. Lines a marked commit
        added keep its time: git blame has nothing earlier to give them."""
        path = path.resolve()
        marked = (self._run(path, "log", "--format=%H", *_MARKED) or "").split() if source else []
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
