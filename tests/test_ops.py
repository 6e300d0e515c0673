"""The table of operations (src/tinydag/ops.py) against everything on the Python side that must know
each operation: the parser and the engine build its example with the right root, inputs and
derivative, the frameworks scripts name a call, every language names it (and lists a call among the
functions it knows, in the field's help and in the message for an unknown function), and the lesson's
listing has its line. A fake operation fails each of these, and a table that lacks a row, or has one
too many, is refused when tinydag.ops is imported. (tests/ts/engine-ops.test.ts checks the TypeScript
table the same way; tests/test_equivalence.py proves the two tables equal.)"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import get_args

import pytest
import yaml

from tinydag import TinyDagError, build_timeline
from tinydag.frameworks import scripts
from tinydag.ops import ATOM, FUNCTIONS, OPS, Frameworks, OpSpec, table_problems
from tinydag.types import Op

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "ru", "et")
STRINGS = {lang: yaml.safe_load((ROOT / f"src/player/strings/{lang}.yml").read_text(encoding="utf-8"))
           for lang in LANGS}
LISTING = (ROOT / "src/microgpt_annotated.py").read_text(encoding="utf-8")
AT = {"a": 0.7, "b": -1.3}  # away from relu's kink and log's edge


def root_value(example: str, values: dict[str, float]) -> float:
    t = build_timeline(example, values)
    return next(n["value"] for n in t["nodes"] if n["id"] == t["root"])


def row_problems(op: str, spec: OpSpec) -> list[str]:
    """Everything that keeps `op`'s row from working end to end; [] for a complete row."""
    problems = []
    for lang, words in STRINGS.items():
        if spec.words not in words:
            problems.append(f"no {spec.words} in {lang}.yml")
        for key in ("expression_help", "error_unknown_function"):
            if spec.shape == "call" and op not in words[key]:
                problems.append(f"{lang}.yml's {key} does not list {op}")
    if spec.code is not None and spec.code not in LISTING:
        problems.append(f'no line "{spec.code}" in the listing')
    try:
        t = build_timeline(spec.example, AT)
    except TinyDagError as error:
        return [*problems, f"its example {spec.example} does not build: {error.message}"]
    root = next(n for n in t["nodes"] if n["id"] == t["root"])
    if root["op"] != op:
        return [*problems, f"the root of {spec.example} is {root['op']}"]
    if len(root["inputs"]) != spec.arity:
        problems.append(f"{len(root['inputs'])} inputs, not {spec.arity}")
    if root.get("derived", False) != spec.derived:
        problems.append(f"derived is {root.get('derived', False)}")
    grads = {n["id"]: n["grad"] for n in t["nodes"]}
    for v in t["variables"]:
        h = 1e-6
        slope = (root_value(spec.example, {**AT, v["name"]: AT[v["name"]] + h})
                 - root_value(spec.example, {**AT, v["name"]: AT[v["name"]] - h})) / (2 * h)
        if abs(grads[v["node"]] - slope) > 1e-6 * (1 + abs(slope)):
            problems.append(f"d/d{v['name']} is {grads[v['node']]}, the slope is {slope}")
    written = scripts(t)
    for framework, name in dataclasses.asdict(spec.frameworks or Frameworks("", "")).items():
        if name and (written is None or f"{name}(" not in written[framework]):
            problems.append(f"{framework} has no {name}")
    return problems


@pytest.mark.parametrize("op", list(OPS))
def test_each_operation_works_end_to_end(op):
    assert row_problems(op, OPS[op]) == []


def test_the_table_has_a_row_for_every_operation_and_the_calls_in_order():
    assert sorted(OPS) == sorted(get_args(Op))
    assert FUNCTIONS == ("relu", "exp", "log")
    assert table_problems(OPS, get_args(Op), FUNCTIONS) == []


TANH = OpSpec(1, "call", "tanh", ATOM, False, "math.tanh(self.data)", "card_op_tanh",
             Frameworks("torch.tanh", "jnp.tanh"), "tanh(a)")


def test_a_fake_operation_fails_wherever_it_is_missing():
    problems = row_problems("tanh", TANH)
    for lang in LANGS:
        assert f"no card_op_tanh in {lang}.yml" in problems
        assert f"{lang}.yml's expression_help does not list tanh" in problems
        assert f"{lang}.yml's error_unknown_function does not list tanh" in problems
    assert 'no line "math.tanh(self.data)" in the listing' in problems
    refused = "its example tanh(a) does not build: There is no function 'tanh'"
    assert any(p.startswith(refused) for p in problems)
    # a row that names a real operation but gets it wrong: the engine disagrees with it
    wrong = dataclasses.replace(OPS["*"], arity=1, derived=True)
    assert row_problems("*", wrong) == ["2 inputs, not 1", "derived is False"]


def test_a_table_with_a_row_missing_or_one_too_many_is_refused():
    known = get_args(Op)
    assert table_problems({**OPS, "tanh": TANH}, (*known, "tanh"), FUNCTIONS) == [
        "the calls ['exp', 'log', 'relu', 'tanh'] are not FunctionName ['exp', 'log', 'relu']"]
    assert table_problems(OPS, (*known, "tanh"), FUNCTIONS) == ["tanh: no row"]
    assert table_problems({**OPS, "tanh": TANH}, known, (*FUNCTIONS, "tanh")) == [
        "tanh: a row for an operation Op does not have"]
    no_name = dataclasses.replace(TANH, frameworks=None)
    assert table_problems({**OPS, "tanh": no_name}, (*known, "tanh"), (*FUNCTIONS, "tanh")) == [
        "tanh: a call needs its name in the frameworks"]
