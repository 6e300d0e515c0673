"""The Python engine and its TypeScript mirror keep the same functions and types in the same order.

A reader who knows one side can find the other (ARCHITECTURE.md, "The two engines and their mirror
test"): tinydag/X.py mirrors inference/X.ts and the lesson's Value class mirrors value.ts. Behaviour
is proven equal by tests/test_equivalence.py; this test guards the structure, so a function added,
renamed or moved on one side only fails `make test`. Names compare without case and underscores
(count_visual_nodes is countVisualNodes); Python's operator methods compare under the names
TypeScript gives them. Intentional differences are listed below, each with its reason.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAIRS = [(f"src/tinydag/{name}.py", f"src/inference/{name}.ts")
         for name in ("errors", "ops", "parse", "trace", "layout", "timeline", "frameworks", "cli", "types")]
PAIRS += [("src/microgpt_annotated.py", "src/inference/value.ts"),
          ("src/tinydag/__init__.py", "src/inference/index.ts")]

# Python's operators as the TypeScript Value class spells them (no operator overloading there).
OPERATORS = {"__add__": "add", "__mul__": "mul", "__pow__": "pow", "__neg__": "neg", "__sub__": "sub",
             "__truediv__": "div", "__radd__": "radd", "__rmul__": "rmul", "__rsub__": "rsub",
             "__rtruediv__": "rdiv"}

# Functions on one side only, with the reason. Everything else must pair up, in order.
ONLY_PYTHON = {
    "src/tinydag/errors.py": {"to_json"},
    # the check at import that the table has every Op's row; TypeScript: `satisfies Record<Op, OpSpec>`
    "src/tinydag/ops.py": {"table_problems"},  # TypeScript: toJSON, which JSON.stringify calls by that name
    "src/tinydag/trace.py": {"derived", "root"},  # properties; TypeScript: isDerived, rootOf (below)
    "src/tinydag/timeline.py": set(),
    "src/tinydag/cli.py": set(),
    "src/tinydag/__init__.py": {"source_digest"},  # the build cache's key; the browser caches nothing
}
ONLY_TYPESCRIPT = {
    "src/inference/errors.ts": {"toJSON"},
    "src/inference/parse.ts": {"match"},  # sticky-regex helper: Python's re.match does it
    # isDerived, rootOf: Python's VisualNode.derived, Trace.root. checkedTree: the texts parsed before,
    # kept: a slider's drag traces one text at every step in the browser; the build traces each once.
    "src/inference/trace.ts": {"isDerived", "rootOf", "checkedTree"},
    "src/inference/layout.ts": set(),
    # Python's float repr and JSON come with the language; TypeScript writes them (byte equality)
    "src/inference/timeline.ts": {"formatFloat"},
}


TYPES_ONLY_PYTHON: dict[str, set[str]] = {}
TYPES_ONLY_TYPESCRIPT = {
    "src/inference/cli.ts": {"UsageError"},  # Python raises its own ValueError
    # TypeScript's row is two tables, so that the player's bundle carries only the looks
    "src/inference/ops.ts": {"OpLook", "OpRules"},
}


def normal(name: str) -> str:
    return OPERATORS.get(name, name).replace("_", "").lower()


def python_types(path: Path) -> list[str]:
    """Classes and type aliases (CamelCase names bound at the top level), in source order."""
    found: list[str] = []
    for statement in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(statement, ast.ClassDef):
            found.append(statement.name)
        elif isinstance(statement, ast.Assign | ast.AnnAssign):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            found += [t.id for t in targets if isinstance(t, ast.Name) and t.id[0].isupper()
                      and not t.id.isupper()]
    return found


def python_functions(path: Path) -> list[str]:
    """Top-level functions, then each top-level class's methods (not __dunder__ ones but operators)."""
    found: list[str] = []
    for statement in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(statement, ast.FunctionDef):
            found.append(statement.name)
        elif isinstance(statement, ast.ClassDef):
            found += [m.name for m in statement.body if isinstance(m, ast.FunctionDef)
                      and (not m.name.startswith("__") or m.name in OPERATORS)]
    return found


@pytest.fixture(scope="module")
def typescript_names() -> dict[str, dict[str, list[str]]]:
    assert shutil.which("node"), "node is needed: run `make setup`"
    files = [ts for _, ts in PAIRS]
    done = subprocess.run(["node", "scripts/ts-names.mjs", *files], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("python, typescript", PAIRS, ids=[Path(p).stem for p, _ in PAIRS])
def test_mirrored_files_have_the_same_functions_in_the_same_order(python, typescript, typescript_names):
    assert (ROOT / python).exists() and (ROOT / typescript).exists(), "both halves of a mirror exist"
    ours = [normal(n) for n in python_functions(ROOT / python)
            if n not in ONLY_PYTHON.get(python, set())]
    theirs = [normal(n) for n in typescript_names[typescript]["functions"]
              if n not in ONLY_TYPESCRIPT.get(typescript, set())]
    assert ours == theirs, f"{python} and {typescript} no longer mirror each other"


@pytest.mark.parametrize("python, typescript", PAIRS, ids=[Path(p).stem for p, _ in PAIRS])
def test_mirrored_files_declare_the_same_types_in_the_same_order(python, typescript, typescript_names):
    ours = [normal(n) for n in python_types(ROOT / python) if n not in TYPES_ONLY_PYTHON.get(python, set())]
    theirs = [normal(n) for n in typescript_names[typescript]["types"]
              if n not in TYPES_ONLY_TYPESCRIPT.get(typescript, set())]
    assert ours == theirs, f"{python} and {typescript} declare different types"


def test_the_allow_lists_name_only_what_exists(typescript_names):
    for python, names in ONLY_PYTHON.items():
        assert names <= set(python_functions(ROOT / python)), python
    for python, names in TYPES_ONLY_PYTHON.items():
        assert names <= set(python_types(ROOT / python)), python
    for typescript, names in ONLY_TYPESCRIPT.items():
        assert names <= set(typescript_names[typescript]["functions"]), typescript
    for typescript, names in TYPES_ONLY_TYPESCRIPT.items():
        assert names <= set(typescript_names[typescript]["types"]), typescript


def test_names_compare_across_the_two_spellings():
    assert normal("count_visual_nodes") == normal("countVisualNodes") == normal("_count_visual_nodes")
    assert normal("__truediv__") == normal("div")
    # __init__ is no function to mirror; Python's operators are (TypeScript spells them add, mul, ...)
    assert python_functions(ROOT / "src/microgpt_annotated.py")[:3] == ["__add__", "__mul__", "__pow__"]


def test_a_function_on_one_side_only_is_drift(tmp_path):
    lone = tmp_path / "lone.py"
    lone.write_text("def parse(text):\n    return text\n\n\ndef helper():\n    pass\n")
    assert [normal(n) for n in python_functions(lone)] == ["parse", "helper"] != [normal("parse")]
