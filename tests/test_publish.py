"""Publishing: the GitHub workflows are valid, and the Pages job's build works as the runner runs it.

The Pages job is read from .github/workflows/pages.yml and its build step is run as written: in a
clone with the whole history (what `fetch-depth: 0` checks out), with a fresh virtual environment,
`SITE_URL` set to a Pages address under a subpath. The site it writes must resolve every link and
asset under that subpath.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT
from tests.test_site import all_pages, unresolved

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))
PAGES_URL = "https://owner.github.io/tinydag-lesson"  # what actions/configure-pages gives as base_url


def test_there_are_workflows_to_check():
    assert {p.name for p in WORKFLOWS} >= {"pages.yml", "test.yml"}


def test_every_workflow_matches_githubs_schema():
    done = subprocess.run([str(Path(sys.executable).parent / "check-jsonschema"), "--builtin-schema",
                           "vendor.github-workflows", *map(str, WORKFLOWS)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_check_rejects_an_unquoted_colon(tmp_path):
    """The mistake that once stopped every deployment: ': ' inside an unquoted step name."""
    broken = tmp_path / "broken.yml"
    broken.write_text((ROOT / ".github/workflows/pages.yml").read_text(encoding="utf-8").replace(
        "- name: Build the site", "- name: Build: the site"), encoding="utf-8")
    done = subprocess.run([str(Path(sys.executable).parent / "check-jsonschema"), "--builtin-schema",
                           "vendor.github-workflows", str(broken)],
                          capture_output=True, text=True, check=False)
    assert done.returncode != 0 and "line" in done.stdout


def pages_job() -> dict:
    return yaml.safe_load((ROOT / ".github/workflows/pages.yml").read_text(encoding="utf-8"))["jobs"]["build"]


def step(job: dict, uses: str = "", runs: str = "") -> dict:
    found = [s for s in job["steps"] if (uses and s.get("uses", "").startswith(uses))
             or (runs and runs in s.get("run", ""))]
    assert len(found) == 1, f"one step {uses or runs!r} in the Pages job"
    return found[0]


def clone_with_history(destination: Path) -> None:
    """A clone of this repository with every commit, carrying this checkout's uncommitted changes."""
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(destination)], check=True)
    def listed(*args: str) -> list[str]:
        out = subprocess.run(["git", "ls-files", "-z", *args], cwd=ROOT, capture_output=True, check=True)
        return [name for name in out.stdout.decode().split("\0") if name]
    for name in listed("--deleted"):
        (destination / name).unlink(missing_ok=True)
    for name in listed("--modified", "--others", "--exclude-standard"):
        if (ROOT / name).is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, destination / name)


@pytest.fixture(scope="module")
def runner_build(tmp_path_factory):
    """The Pages job's build step, run as the runner does: its command, its env, a fresh clone."""
    job = pages_job()
    assert step(job, uses="actions/checkout")["with"]["fetch-depth"] == 0, "the notices need history"
    build = step(job, runs="make build")
    site_dir = step(job, uses="actions/upload-pages-artifact")["with"]["path"]
    work = tmp_path_factory.mktemp("runner") / "repo"
    clone_with_history(work)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if "/.venv/" not in p + "/")
    for name, value in build.get("env", {}).items():
        env[name] = str(value).replace("${{ steps.pages.outputs.base_url }}", PAGES_URL)
    done = subprocess.run(["bash", "-e", "-c", build["run"]], cwd=work, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    return work, work / site_dir, env["SITE_URL"], done.stdout + done.stderr


def test_the_runner_build_installs_runtime_dependencies_only(runner_build):
    work, _, _, _ = runner_build
    python = work / ".venv" / "bin" / "python"
    assert subprocess.run([str(python), "-c", "import mkdocs, material, yaml"], check=False).returncode == 0
    for tool in ("pytest", "playwright", "hypothesis"):
        found = subprocess.run([str(python), "-c", f"import {tool}"], capture_output=True, check=False)
        assert found.returncode != 0, f"{tool} is a test tool, not needed to publish"


def test_the_runner_build_resolves_every_link_under_the_pages_subpath(runner_build):
    _, site, site_url, log = runner_build
    assert site_url == PAGES_URL + "/"
    pages = all_pages(site)
    assert {"index.html", "02-autograd/index.html", "ru/02-autograd/index.html",
            "et/00-basics/index.html"} <= set(pages)
    assert unresolved(site, pages, site_url) == []
    lesson = (site / "02-autograd" / "index.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{site_url}02-autograd/">' in lesson
    assert "shallow git clone" not in log  # the whole history: translation notices can be dated


def test_constraints_pin_every_declared_dependency():
    """`make setup`, .ci/run and the Pages build install with -c constraints.txt: each package pinned."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = project["dependencies"] + [r for extra in project["optional-dependencies"].values()
                                          for r in extra]
    def name(requirement: str) -> str:
        return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", requirement)[0]).lower()
    pinned = {name(line): line for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
              if line and not line.startswith("#")}
    assert all("==" in line for line in pinned.values())
    assert sorted({name(r) for r in declared} - set(pinned)) == []
