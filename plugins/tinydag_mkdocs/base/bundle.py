"""The player and widget bundles: built output, shipped with the plugin like Material ships its JavaScript.

`make bundle` (`python -m tinydag_mkdocs.bundle`) runs esbuild on src/player and src/widgets, minifies the
shaders' GLSL (glsl.py), then runs terser on the JavaScript (its compressor and mangler shrink esbuild's
output by another ~5 % gzip), and writes
`assets/player.js`, `player.css`, `engine.js`, `widgets.js` and `widgets.css` into this package (a page
loads only the bundle it uses; the player loads the engine, src/inference, only when a reader's change
needs it); the plugin only reads them, so building
the site needs Python alone. `--check` rebuilds in a temporary folder and fails when the shipped files
differ (a TypeScript change without `make bundle` cannot land: `make test` runs the check).
`--watch` rebuilds whenever a source changes (`make serve` runs it beside MkDocs when Node is there).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .glsl import ShaderError, minify_shaders

ASSETS = Path(__file__).resolve().parents[1] / "assets"
ROOT = Path(__file__).resolve().parents[3]  # the repository: plugins/tinydag_mkdocs/base/bundle.py
ENTRY = "src/player/page/main.ts"
CSS = "src/player/player.css"
# Each bundle: output name -> (entry, stylesheet). engine.js is the player's engine, loaded on demand
# (src/player/engine/load.ts); widgets.js imports pieces of the player (strings, number formats, the
# error view) and the engine; esbuild copies what each uses.
BUNDLES = {"player": (ENTRY, CSS), "engine": ("src/player/engine/engine.ts",),
           "widgets": ("src/widgets/main.ts", "src/widgets/widgets.css")}
SOURCES = ("src/player", "src/inference", "src/widgets")  # what the bundles are made of (--watch polls them)
ESBUILD = "node_modules/.bin/esbuild"
ESBUILD_OPTIONS = ("--bundle", "--minify", "--format=iife", "--target=es2022", "--legal-comments=none",
                   "--log-level=warning", "--charset=utf8")
# esbuild's minifier is fast but shallow; terser's passes inline and fold what is left (same behaviour,
# deterministic output, so --check still compares byte for byte). pure_getters: our getters only read
# a field, and no code reads a property for its side effect (a forced layout), so an unused read goes.
TERSER = "node_modules/.bin/terser"
# unsafe_arrows and unsafe_methods: no function of ours is called with `new` but classes, so an
# anonymous function may become an arrow and an object's function a method (about 30 bytes gzip).
# unsafe: the built-ins are the standard ones (nothing patches them), and nothing turned into text with
# String(x) or x.toString() is a Symbol or an object with a valueOf of its own, so either may become
# "" + x (about 100 bytes gzip).
TERSER_OPTIONS = ("--compress",
                  "passes=4,pure_getters=true,unsafe=true,unsafe_arrows=true,unsafe_methods=true",
                  "--mangle", "--ecma", "2020", "--comments", "false")
# esbuild may rename the members TypeScript marks private (--mangle-props): only `this.x` in their own
# class reads them. It renames every property of that name in a bundle, so a name the browser's APIs
# (TypeScript's lib files) also use, or one that crosses the bundle's edge (the page's JSON and the
# widgets' data, which the plugin writes; the URL; the debug handle the tests read; the shaders'
# attribute and uniform names; the engine's methods, load.ts, which player.js calls in engine.js, each
# bundle renaming on its own), is left alone. (What those methods return is read across the edge too
# (ErrorView, Field): a private name of theirs read on the other side would break the browser tests
# that use it.)
PRIVATE = re.compile(r"\bprivate (?:readonly )?(?:static )?([A-Za-z_]\w*)")
WORD = re.compile(r"[A-Za-z_$][\w$]*")
EDGE_FILES = ("node_modules/typescript/lib/lib.*.d.ts", "src/inference/types.ts", "src/player/page/mount.ts",
              "src/player/model/model.ts", "src/player/page/url.ts", "src/player/shared/debug.ts",
              "src/player/stage/shaders.ts", "src/player/engine/load.ts",
              "plugins/tinydag_mkdocs/**/*.py")
OUTPUTS = ("player.js", "player.css", "engine.js", "widgets.js", "widgets.css")
WATCH_INTERVAL_S = 0.5


class BundleError(Exception):
    pass


def shipped(assets: Path = ASSETS) -> dict[str, bytes]:
    """The bundle the plugin publishes, by output name."""
    missing = [name for name in OUTPUTS if not (assets / name).is_file()]
    if missing:
        raise BundleError(f"the player or widget bundle is missing ({', '.join(missing)} in {assets}): "
                          "run `make bundle` (it needs Node: `make setup`)")
    return {name: (assets / name).read_bytes() for name in OUTPUTS}


def build(root: Path = ROOT, esbuild: str = ESBUILD) -> dict[str, bytes]:
    """Bundle the player and the widgets from their sources with esbuild; the outputs by name.
    A bundle whose entry does not exist (yet) is skipped."""
    executable = root / esbuild
    if not executable.exists():
        raise BundleError(f"{esbuild} not found: run `make setup` (npm ci) first")
    entries = [f"{name}={path}" for name, paths in BUNDLES.items() for path in paths
               if (root / path).is_file()]
    mangle = f"--mangle-props=^({'|'.join(private_members(root))})$"
    with tempfile.TemporaryDirectory(prefix="esbuild-") as work:
        run = subprocess.run([str(executable), *ESBUILD_OPTIONS, mangle, *entries, f"--outdir={work}"],
                             cwd=root, capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise BundleError(f"esbuild failed to bundle the player:\n{run.stderr.strip()}")
        if run.stderr.strip():
            raise BundleError(f"esbuild warnings while bundling the player:\n{run.stderr.strip()}")
        for script in sorted(Path(work).glob("*.js")):
            try:
                script.write_text(minify_shaders(script.read_text(encoding="utf-8")), encoding="utf-8")
            except ShaderError as error:
                raise BundleError(f"{script.name}: {error}") from None
            _compress(root, script)
        return {name: (Path(work) / name).read_bytes() for name in OUTPUTS if (Path(work) / name).is_file()}


def private_members(root: Path = ROOT) -> list[str]:
    """The private members esbuild may rename, sorted (the same sources give the same bundle)."""
    private = {name for folder in SOURCES for path in sorted((root / folder).rglob("*.ts"))
               for name in PRIVATE.findall(path.read_text(encoding="utf-8"))}
    edge = {word for pattern in EDGE_FILES for path in root.glob(pattern)
            for word in WORD.findall(path.read_text(encoding="utf-8"))}
    return sorted(name for name in private - edge if len(name) > 2)


def _compress(root: Path, script: Path) -> None:
    """Run terser over one bundled script, in place."""
    executable = root / TERSER
    if not executable.exists():
        raise BundleError(f"{TERSER} not found: run `make setup` (npm ci) first")
    out = script.with_suffix(".min.js")
    run = subprocess.run([str(executable), str(script), *TERSER_OPTIONS, "--output", str(out)],
                         cwd=root, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise BundleError(f"terser failed on {script.name}:\n{run.stderr.strip()}")
    out.replace(script)


def write(files: dict[str, bytes], assets: Path = ASSETS) -> list[str]:
    """Ship `files`; the names of those that changed."""
    changed = []
    for name, content in files.items():
        path = assets / name
        if not path.is_file() or path.read_bytes() != content:
            tmp = path.with_suffix(path.suffix + ".tmp")
            tmp.write_bytes(content)
            tmp.replace(path)  # a serving MkDocs never reads half a file
            changed.append(name)
    return changed


def stale(root: Path = ROOT, assets: Path = ASSETS) -> list[str]:
    """Shipped outputs that differ from a fresh bundle of the sources."""
    fresh = build(root)
    current = {name: (assets / name).read_bytes() for name in OUTPUTS if (assets / name).is_file()}
    return sorted(name for name in set(fresh) | set(current) if fresh.get(name) != current.get(name))


def _sources_stamp(root: Path) -> tuple:
    files = [p for folder in SOURCES for p in sorted((root / folder).rglob("*")) if p.is_file()]
    return tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files)


def watch(root: Path = ROOT) -> None:
    stamp = None
    while True:
        now = _sources_stamp(root)
        if now != stamp:
            stamp = now
            try:
                changed = write(build(root))
                if changed:
                    print(f"[bundle] wrote {', '.join(changed)}", file=sys.stderr, flush=True)
            except BundleError as exc:
                print(f"[bundle] {exc}", file=sys.stderr, flush=True)
        time.sleep(WATCH_INTERVAL_S)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tinydag_mkdocs.bundle",
                                     description="Bundle the player and the widgets into the plugin's assets "
                                                 "(make bundle).")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail when the shipped bundle is stale")
    mode.add_argument("--watch", action="store_true", help="rebuild whenever a source changes")
    args = parser.parse_args(argv)
    try:
        if args.watch:
            watch()
        if args.check:
            names = stale()
            if names:
                print(f"the shipped bundle is stale ({', '.join(names)}): run `make bundle` and "
                      f"commit {ASSETS.relative_to(ROOT)}/", file=sys.stderr)
                return 1
            return 0
        changed = write(build())
        print(f"player and widget bundles: {', '.join(changed) or 'unchanged'} ({ASSETS.relative_to(ROOT)}/)")
        return 0
    except BundleError as exc:
        print(exc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
