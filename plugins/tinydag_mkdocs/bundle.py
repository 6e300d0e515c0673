"""Bundle the player (TypeScript + CSS) with esbuild, cached by the content of what esbuild read.

The cache lives in `cache_dir` (relative to mkdocs.yml): `bundle.json` lists the input files of the
last bundle (from esbuild's metafile) with a digest of their contents; the outputs are stored by
their own hash. While no input changed, a build only re-hashes the inputs.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

ESBUILD_OPTIONS = ("--bundle", "--minify", "--format=iife", "--target=es2022", "--legal-comments=none",
                   "--log-level=warning", "--charset=utf8")
OUTPUTS = ("player.js", "player.css")


class BundleError(Exception):
    pass


@dataclass(frozen=True)
class Bundle:
    files: dict[str, bytes]  # output name (player.js, player.css) -> content
    version: str  # short content hash, for cache-busting URLs
    warnings: str  # what esbuild printed when it made this bundle (kept in the cache too)


def bundle(root: Path, esbuild: str, entry: str, css: str, cache_dir: Path) -> Bundle:
    """The player bundle for the current sources: from the cache, or built now."""
    entries = [f"player={entry}"] + ([f"player={css}"] if (root / css).is_file() else [])
    options = [*ESBUILD_OPTIONS, *entries]
    manifest_path = cache_dir / "bundle.json"
    cached = _from_cache(root, cache_dir, manifest_path, options)
    if cached is not None:
        return cached
    return _build(root, esbuild, options, cache_dir, manifest_path)


def _from_cache(root: Path, cache_dir: Path, manifest_path: Path, options: list[str]) -> Bundle | None:
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        if manifest["options"] != options or manifest["digest"] != _digest(root, manifest["inputs"]):
            return None
        files = {name: (cache_dir / "out" / sha).read_bytes() for name, sha in manifest["outputs"].items()}
    except (OSError, ValueError, KeyError):
        return None
    return Bundle(files, manifest["version"], manifest.get("warnings", ""))


def _build(root: Path, esbuild: str, options: list[str], cache_dir: Path, manifest_path: Path) -> Bundle:
    executable = root / esbuild
    if not executable.exists():
        raise BundleError(f"{esbuild} not found: run `make setup` (npm ci) first")
    cache_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="esbuild-", dir=cache_dir))
    try:
        run = subprocess.run([str(executable), *options, f"--outdir={work / 'dist'}",
                              f"--metafile={work / 'meta.json'}"],
                             cwd=root, capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise BundleError(f"esbuild failed to bundle the player:\n{run.stderr.strip()}")
        meta = json.loads((work / "meta.json").read_text(encoding="utf-8"))
        files = {name: (work / "dist" / name).read_bytes()
                 for name in OUTPUTS if (work / "dist" / name).is_file()}
    finally:
        shutil.rmtree(work, ignore_errors=True)

    inputs = sorted(meta["inputs"])
    version = hashlib.sha256(b"".join(files[n] for n in sorted(files))).hexdigest()[:12]
    outputs = {}
    (cache_dir / "out").mkdir(exist_ok=True)
    for name, content in files.items():
        sha = hashlib.sha256(content).hexdigest()
        _write_atomic(cache_dir / "out" / sha, content)
        outputs[name] = sha
    warnings = run.stderr.strip()
    manifest = {"options": options, "inputs": inputs, "digest": _digest(root, inputs),
                "outputs": outputs, "version": version, "warnings": warnings}
    _write_atomic(manifest_path, json.dumps(manifest, indent=1).encode())
    return Bundle(files, version, warnings)


def _digest(root: Path, inputs: list[str]) -> str:
    h = hashlib.sha256()
    for name in inputs:
        h.update(name.encode() + b"\0" + hashlib.sha256((root / name).read_bytes()).digest())
    return h.hexdigest()


def _write_atomic(path: Path, content: bytes) -> None:
    """Several builds may share the cache (serve + tests): never leave a half-written file."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as out:
        out.write(content)
    os.replace(tmp, path)
