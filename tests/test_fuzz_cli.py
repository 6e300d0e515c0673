"""Fuzz: both command lines with hostile argument lists, as real processes.

For any argv (bytes that are not UTF-8 included) both print valid UTF-8, JSON on stdout for exit 0
and 2, never a stack trace, and the same stdout and exit code as each other. A reader that closes
the pipe early ends both quietly. `make fuzz` sets TINYDAG_FUZZ_ARGV=500 (random argument lists).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import ROOT

ARGV_EXAMPLES = int(os.environ.get("TINYDAG_FUZZ_ARGV", "12"))
COMMANDS = {"python": [sys.executable, "-m", "tinydag"], "typescript": ["node", "scripts/timeline-cli.mjs"]}

HOSTILE = [
    [b"\xff+a"], [b"a", b"--set", b"a=\xff"], [b"--set", b"\xfe=1", b"a"], [b"\xed\xa0\x80 + a"],
    [b"--\xff"], [b"\xc0\xaf"], [b"\xf4\x90\x80\x80"], [b"\xf0\x9f\x98"], [b"a\xe2\x82"],
    [b"(1e200/1e-100)*1e-300"], [b"0*(10/1e-154)"], [b"(a/b)*c", b"--set=a=1e200", b"--set=b=1e-100",
                                                     b"--set=c=1e-300"],
    [b"a", b"--set", b"a=1e999"], [b"a", b"--set=a=nan"], [b"a" * 5000], [b"(" * 3000], [],
    [b"--"], [b"--set"], [b"-"], [b"a", b"b"], ["\U0001F600 + a".encode()], [b"\x1b[31m"],
    [b"a", b"--set", "a=\u0663".encode()], [b"--help"], [b"a", b"--help", b"--", b"b"], [b"--", b"--help"],
    [b"a ** (1/2)", b"--set=a=9"], [b"a ** 0", b"--set=a=0"], [b"1/(1/b - c)", b"--set=b=8.84179473681791",
                                          b"--set=c=0.11309921003209036"],
]
TOKENS = [b"a", b"--set", b"a=2", b"--", b"-a", b"(a + b) * c", b"\xff", b"\xe2\x82", b"log(a)", b"a=-0",
          b"--set=b=1e308", b"=", b"b ** 0.5", b"exp(a)"]


def run(side: str, argv: list[bytes]) -> subprocess.CompletedProcess:
    return subprocess.run(COMMANDS[side] + argv, cwd=ROOT, capture_output=True, check=False, timeout=60)


def not_json(name: str) -> None:
    pytest.fail(f"printed {name}, which is not JSON")


def check(argv: list[bytes]) -> None:
    done = {side: run(side, argv) for side in COMMANDS}
    for side, result in done.items():
        out = result.stdout.decode("utf-8")  # strict: raises on invalid UTF-8
        err = result.stderr.decode("utf-8", "replace")
        assert result.returncode in (0, 2, 64), (side, argv, result.returncode, err)
        assert "Traceback" not in err and "\n    at " not in err, (side, argv, err)
        if out.startswith("usage:"):  # --help: the usage on stdout, which names each program
            assert result.returncode == 0 and b"--help" in argv, (side, argv, out)
        elif result.returncode in (0, 2):
            json.loads(out, parse_constant=not_json)
        else:
            assert out == "" and "usage:" in err, (side, argv, out, err)
    python, typescript = done["python"], done["typescript"]
    same_lines = slice(1, None) if python.stdout.startswith(b"usage:") else slice(None)
    assert (python.returncode, python.stdout.split(b"\n")[same_lines]) == \
        (typescript.returncode, typescript.stdout.split(b"\n")[same_lines]), argv
    assert python.stderr.split(b"\n")[:-2] == typescript.stderr.split(b"\n")[:-2], argv  # usage lines differ


@pytest.mark.parametrize("argv", HOSTILE, ids=[repr(b" ".join(a))[2:40] for a in HOSTILE])
def test_hostile_argument_lists(argv):
    check(argv)


ARG = st.one_of(st.sampled_from(TOKENS),
                st.binary(min_size=1, max_size=16).filter(lambda b: b"\x00" not in b),
                st.text(max_size=12).map(lambda t: t.replace("\x00", "").encode("utf-8", "surrogatepass")))


@settings(deadline=None, max_examples=ARGV_EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ARG, max_size=5))
def test_random_argument_lists(argv):
    check(argv)


def test_counts():
    print(f"\ncli fuzz: {len(HOSTILE)} hostile and {ARGV_EXAMPLES} random argument lists, "
          "each through both command lines")


@pytest.mark.parametrize("side", COMMANDS)
def test_a_closed_pipe_ends_quietly(side):
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before a byte is written
    try:
        done = subprocess.run(COMMANDS[side] + ["relu(w * x + v * y + b) - a / a"], cwd=ROOT, stdout=writer,
                              stderr=subprocess.PIPE, check=False, timeout=60)
    finally:
        os.close(writer)
    assert done.returncode == 1 and done.stderr == b"", done.stderr.decode("utf-8", "replace")
