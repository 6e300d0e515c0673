"""The player bundle ships with the plugin (plugins/tinydag_mkdocs/assets/player.js, player.css).

`make bundle` writes it; the site builds from it with Python alone. These tests keep the shipped
files equal to a fresh bundle of the sources, and build the site with no Node anywhere in sight.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tinydag_mkdocs.base import bundle, glsl

ROOT = Path(__file__).resolve().parent.parent


def test_the_shipped_bundle_is_the_bundle_of_the_current_sources():
    stale = bundle.stale()
    assert not stale, (f"the shipped player bundle is stale ({', '.join(stale)}): run `make bundle` and "
                       "commit plugins/tinydag_mkdocs/assets/")


def test_make_bundle_writes_only_what_changed_and_check_tells_stale_from_fresh(tmp_path):
    src = tmp_path / "src/player"
    (src / "page").mkdir(parents=True)
    (src / "page/main.ts").write_text("import { x } from '../x';\nconsole.log(x);\n")
    (src / "x.ts").write_text("export const x: number = 1;\n")
    (tmp_path / "node_modules/.bin").mkdir(parents=True)
    for tool in ("esbuild", "terser"):
        (tmp_path / "node_modules/.bin" / tool).symlink_to(ROOT / "node_modules/.bin" / tool)
    assets = tmp_path / "assets"
    assets.mkdir()
    files = bundle.build(tmp_path)
    assert b"console.log(1)" in files["player.js"] and "player.css" not in files  # no CSS source yet
    assert "widgets.js" not in files  # no widgets entry yet: that bundle is skipped
    assert bundle.write(files, assets) == ["player.js"]
    assert bundle.write(bundle.build(tmp_path), assets) == []  # nothing changed: nothing written
    (src / "player.css").write_text(".a { color: red }\n")
    (src / "x.ts").write_text("export const x: number = 2;\n")  # an import changed
    widgets = tmp_path / "src/widgets"  # the second bundle: its own entry, sharing the player's modules
    widgets.mkdir()
    (widgets / "main.ts").write_text("import { x } from '../player/x';\nconsole.info(x + 40);\n")
    (widgets / "widgets.css").write_text(".w { color: blue }\n")
    (src / "engine").mkdir()  # the player's engine, a bundle of its own that the player loads on demand
    (src / "engine/engine.ts").write_text("import { x } from '../x';\nconsole.warn(x + 5);\n")
    everything = ["engine.js", "player.css", "player.js", "widgets.css", "widgets.js"]
    assert bundle.stale(tmp_path, assets) == everything
    bundle.write(bundle.build(tmp_path), assets)
    assert bundle.stale(tmp_path, assets) == []
    assert b"console.log(2)" in (assets / "player.js").read_bytes()
    assert b"color:red" in (assets / "player.css").read_bytes()
    assert b"console.info(42)" in (assets / "widgets.js").read_bytes()  # x inlined from the player's module
    assert b"console.log" not in (assets / "widgets.js").read_bytes()  # the player's entry is not in it
    assert b"color:#00f" in (assets / "widgets.css").read_bytes()
    assert b"console.warn(7)" in (assets / "engine.js").read_bytes()
    assert b"console.warn" not in (assets / "player.js").read_bytes()  # the engine's entry is not in it
    assert sorted(bundle.shipped(assets)) == everything


def test_a_player_that_does_not_compile_is_refused_with_esbuilds_message(tmp_path):
    (tmp_path / "src/player/page").mkdir(parents=True)
    (tmp_path / "src/player/page/main.ts").write_text("const = ;\n")
    (tmp_path / "node_modules/.bin").mkdir(parents=True)
    (tmp_path / "node_modules/.bin/esbuild").symlink_to(ROOT / "node_modules/.bin/esbuild")
    with pytest.raises(bundle.BundleError, match="esbuild failed to bundle the player") as error:
        bundle.build(tmp_path)
    assert "main.ts" in str(error.value)


def test_without_node_modules_the_bundler_says_what_to_run(tmp_path):
    with pytest.raises(bundle.BundleError, match="make setup"):
        bundle.build(tmp_path)
    with pytest.raises(bundle.BundleError, match="make bundle"):
        bundle.shipped(tmp_path)


def test_the_site_builds_with_python_alone(tmp_path):
    """A translator's clone: the sources without node_modules, and no node or npm on PATH."""
    clone = tmp_path / "clone"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in tracked.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    for name in bundle.OUTPUTS:  # the working tree's bundle, committed or about to be
        shutil.copy2(bundle.ASSETS / name, clone / "plugins/tinydag_mkdocs/assets" / name)
    bare_path = tmp_path / "bin"
    bare_path.mkdir()
    (bare_path / "python").symlink_to(sys.executable)
    assert not (clone / "node_modules").exists()
    env = {"PATH": str(bare_path), "HOME": str(tmp_path), "NO_MKDOCS_2_WARNING": "1",
           "PYTHONPATH": os.pathsep.join([str(clone / "src"), str(clone / "plugins")])}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")]
    run = subprocess.run(command, cwd=clone, env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    for lang in ("", "ru/", "et/"):
        page = tmp_path / "site" / lang / "02-autograd/index.html"
        assert "data-sandbox" in page.read_text(encoding="utf-8")
    published = (tmp_path / "site/assets/tinydag/player.js").read_bytes()
    assert published == (bundle.ASSETS / "player.js").read_bytes()


def test_the_bundled_script_goes_through_terser_after_esbuild(tmp_path):
    """esbuild alone keeps a one-use helper as a function; terser's passes fold it into its caller."""
    (tmp_path / "src/player/page").mkdir(parents=True)
    (tmp_path / "src/player/page/main.ts").write_text(
        "function label(n: number): string { return 'n=' + n; }\ndocument.title = label(3);\n")
    (tmp_path / "node_modules/.bin").mkdir(parents=True)
    (tmp_path / "node_modules/.bin/esbuild").symlink_to(ROOT / "node_modules/.bin/esbuild")
    with pytest.raises(bundle.BundleError, match="terser not found"):
        bundle.build(tmp_path)
    (tmp_path / "node_modules/.bin/terser").symlink_to(ROOT / "node_modules/.bin/terser")
    assert b'document.title="n=3"' in bundle.build(tmp_path)["player.js"]


def test_the_shaders_ship_without_the_whitespace_a_reader_needs():
    """base/glsl.py: a shader's GLSL loses its indentation and the spaces around operators, keeps a space
    between words, a line for each directive and each `${…}` as it is; other template literals stay."""
    shader = ("\n#version 100\nprecision  highp float;\nuniform vec4 u[${n}];\nvoid main() {\n"
              "  float a = 1.0 - -u[0].x;\n  gl_FragColor = vec4(${v} * 2.0, a, 0.0, 1.0);\n}\n")
    assert glsl.minify_shaders(f"x=t`{shader}`,y=`  keep  me  `") == (
        "x=t`#version 100\nprecision highp float;uniform vec4 u[${n}];void main(){float a=1.0- -u[0].x;"
        "gl_FragColor=vec4(${v}*2.0,a,0.0,1.0);}`,y=`  keep  me  `")
    assert glsl.minify("void main() { a = b - -c + +d / *p; }") == "void main(){a=b- -c+ +d/ *p;}"
    # review 51: a comment would swallow the lines joined after it; a placeholder may be negative, or a
    # directive of its own; a shader the pairing of backticks misses fails the build
    assert glsl.minify("void main() {\n  // the colour\n  a = 1.0; /* lit */\n}") == "void main(){a=1.0;}"
    assert glsl.minify("${defines}\nvoid main() {\n  a = b - ${x} * 2.0;\n}") == (
        "${defines}\nvoid main(){a=b- ${x}*2.0;}")
    with pytest.raises(glsl.ShaderError, match="found 0 of the 1 shaders"):
        glsl.minify_shaders("x=`${f({a:1})}`,y=t`void main() { }`")
    # every shader the player ships is minified: no line of GLSL indented, no space beside an operator
    player = (bundle.ASSETS / "player.js").read_text(encoding="utf-8")
    shaders = [m[1] for m in glsl.TEMPLATE.finditer(player) if "void main" in m[1]]
    assert len(shaders) == 6
    assert all("\n " not in s and " = " not in s and s == glsl.minify(s) for s in shaders)


def test_the_engines_functions_keep_their_names_in_both_bundles():
    """player.js calls engine.js's functions by name (src/player/engine/load.ts, Engine), and esbuild
    renames a private member's name differently in each bundle (review 57: a function named as a private
    method broke Nudge check until renamed): every name of the Engine interface is a key of the engine's
    object in engine.js and is called by that name in player.js."""
    load = (ROOT / "src/player/engine/load.ts").read_text(encoding="utf-8")
    interface = re.search(r"export interface Engine \{(.*?)\n\}", load, re.S)
    assert interface
    names = re.findall(r"^  (\w+)[(:]", interface[1], re.M)
    assert len(names) >= 15, names
    player = (bundle.ASSETS / "player.js").read_text(encoding="utf-8")
    engine = (bundle.ASSETS / "engine.js").read_text(encoding="utf-8")
    for name in names:
        assert re.search(rf"[{{,]{name}[:(,}}]", engine), f"engine.js has no function named {name}"
        assert re.search(rf"\.{name}\b", player), f"player.js calls no {name}"
