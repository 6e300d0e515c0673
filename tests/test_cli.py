"""The CLI contract: JSON on stdout, exit 0 or 2, options anywhere, `--` ends them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tinydag import build_timeline, dumps


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tinydag", *args], capture_output=True, text=True)


def test_prints_the_timeline_and_exits_zero():
    done = run("(a + b) * c", "--set", "a=2", "--set", "b=-3", "--set", "c=10")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == dumps(build_timeline("(a + b) * c", {"a": 2, "b": -3, "c": 10}))


def test_options_before_expression_and_double_dash():
    first = run("--set", "a=2", "--", "-a + b")
    second = run("-a + b", "--set=a=2")
    assert first.returncode == second.returncode == 0
    assert json.loads(first.stdout) == json.loads(second.stdout)
    assert json.loads(first.stdout)["nodes"][-1]["value"] == -1.0


def test_bad_input_prints_error_object_and_exits_two():
    done = run("a ** b")
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert (error["code"], error["start"], error["end"]) == ("variable-exponent", 5, 6)
    numeric = json.loads(run("log(a)", "--set", "a=0").stdout)["error"]
    assert numeric["code"] == "domain" and numeric["node"] == "n1"


def test_same_output_across_processes():
    args = ("relu(w * x + v * y + b) - a / a", "--set", "w=0.5")
    assert run(*args).stdout == run(*args).stdout


def test_misuse_is_reported_on_stderr():
    done = run("--set", "a", "a")
    assert done.returncode not in (0, 2) and "NAME=VALUE" in done.stderr


def test_help_prints_the_usage_and_exits_zero():
    for argv in (["--help"], ["a + b", "--help"], ["--set", "a=2", "--help"]):
        done = run(*argv)
        assert (done.returncode, done.stderr) == (0, ""), argv
        assert done.stdout.startswith('usage: python -m tinydag "EXPR"') and "exit 2" in done.stdout
    after = run("--", "--help")  # after `--`, it is the expression (a syntax error, as JSON)
    assert after.returncode == 2 and json.loads(after.stdout)["error"]["code"] == "syntax"


def test_help_into_a_closed_pipe_ends_quietly():
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run([sys.executable, "-m", "tinydag", "--help"], stdout=writer,
                              stderr=subprocess.PIPE, check=False)
    finally:
        os.close(writer)
    assert done.returncode == 1 and done.stderr == b""


def test_a_folded_exponent_on_the_command_line():
    done = run("a ** (1/2)", "--set", "a=9")
    assert done.returncode == 0
    timeline = json.loads(done.stdout)
    assert timeline["nodes"][-1]["value"] == 3.0 and timeline["nodes"][-1]["exponent"] == 0.5


def test_a_folded_exponent_beyond_a_float_is_an_error_not_a_traceback():
    done = run("b ** 1e-300 ** -2")  # the folded exponent is 1e600, beyond a float
    assert (done.returncode, done.stderr) == (2, "")
    error = json.loads(done.stdout)["error"]
    assert (error["code"], error["start"], error["end"], "node" in error) == ("overflow", 5, 17, False)
