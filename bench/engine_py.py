"""Engine benchmark (measured, never asserted): prints ONE JSON object on stdout, the same shape as
bench/engine.ts, so the two can be put side by side (TS/Python ratio per figure).

    .venv/bin/python bench/engine_py.py

Figures are medians in milliseconds per call; small calls are timed in batches so the clock's
resolution does not dominate.
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterable

from microgpt_annotated import Value
from tinydag import build_timeline
from tinydag.layout import layout
from tinydag.parse import parse
from tinydag.timeline import timeline_of
from tinydag.trace import trace

DEFAULT = ("(a + b) * c", {"a": 2, "b": -3, "c": 10})
FORTY = (  # exactly 40 visual nodes (the engine's limit), every kind of operation; as in engine.ts
    "relu(a * b + c * d - e / f) * exp(g - h) + log(a * a + 1) ** 2 - (b - c) / (d + 2) "
    "+ relu(-e * f) * (g + h * 0.5) - exp(-a) * b",
    {"a": 0.5, "b": -1.5, "c": 2, "d": 3, "e": -0.5, "f": 1.25, "g": 0.75, "h": -2},
)
DEEPEST = "a/(" * 38 + "a/a" + ")" * 38  # 40 nodes, 79 Values deep: the deepest recursion backward() meets
SIZE = 100_000


def measure(fn: Callable[[], object], batches: int, batch: int = 1,
            setup: Callable[[], None] = lambda: None, warmup: int = 20) -> dict:
    """Median ms per call of fn over `batches` batches of `batch` calls, after `warmup` batches."""
    for _ in range(warmup * batch):
        setup()
        fn()
    samples = []
    for _ in range(batches):
        total = 0
        for _ in range(batch):
            setup()
            start = time.perf_counter_ns()
            fn()
            total += time.perf_counter_ns() - start
        samples.append(total / batch / 1e6)
    return {"median_ms": statistics.median(samples), "runs": batches * batch}


def pipeline(expression: str, values: dict[str, float], batches: int) -> dict:
    t = trace(expression, values)
    return {
        "expression": expression,
        "nodes": len(t.nodes),
        "parse": measure(lambda: parse(expression), batches, 20),
        "trace": measure(lambda: trace(expression, values), batches, 20),  # parse + forward + backward
        "layout": measure(lambda: layout(t.nodes), batches, 20),
        "timeline": measure(lambda: timeline_of(t), batches, 20),  # layout + the timeline dict
        "total": measure(lambda: build_timeline(expression, values), batches, 20),
    }


# ---- backward(): on the deepest graph the engine allows, and on a big wide graph beside a peer ----
# (The lesson's build(v) recurses, as micrograd's does; the engine never makes a graph deeper than 79.)

def wide(make, mul, add):
    level = [mul(make(i % 7 - 3), make(0.5)) for i in range(SIZE)]  # SIZE products
    while len(level) > 1:  # summed pairwise: a wide graph, only ~17 levels deep
        level = [add(level[i], level[i + 1]) if i + 1 < len(level) else level[i]
                 for i in range(0, len(level), 2)]
    return level[0]


class PeerValue:
    """micrograd's shape: a set of children, a closure per node, and a recursive topological sort."""

    def __init__(self, data: float, children: tuple = ()) -> None:
        self.data, self.grad = data, 0.0
        self._backward: Callable[[], None] = lambda: None
        self._prev = set(children)

    def __add__(self, other: PeerValue) -> PeerValue:
        out = PeerValue(self.data + other.data, (self, other))

        def _backward() -> None:
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other: PeerValue) -> PeerValue:
        out = PeerValue(self.data * other.data, (self, other))

        def _backward() -> None:
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def backward(self) -> None:
        topo, visited = [], set()

        def build(v: PeerValue) -> None:
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


def every_node(root, children: Callable[[object], Iterable]) -> list:
    seen, stack, found = {id(root)}, [root], []
    while stack:
        v = stack.pop()
        found.append(v)
        for c in children(v):
            if id(c) not in seen:
                seen.add(id(c))
                stack.append(c)
    return found


def backward_figure(root, children: Callable[[object], Iterable], runs: int, batch: int = 1) -> dict:
    nodes = every_node(root, children)

    def reset() -> None:
        for v in nodes:
            v.grad = 0.0

    try:
        reset()
        root.backward()
    except RecursionError as error:
        return {"nodes": len(nodes), "survived": False, "error": f"RecursionError: {error}"}
    return {"nodes": len(nodes), "survived": True, **measure(root.backward, runs, batch, reset, warmup=1)}


def main() -> None:
    ours = {
        "deepest": backward_figure(trace(DEEPEST, {"a": 1.5}).root.out, lambda v: v._children, 100, 20),
        "wide": backward_figure(wide(Value, lambda a, b: a * b, lambda a, b: a + b),
                                lambda v: v._children, 9),
    }
    peer = {
        "wide": backward_figure(wide(PeerValue, lambda a, b: a * b, lambda a, b: a + b),
                                lambda v: v._prev, 9),
    }
    print(json.dumps({
        "engine": "python",
        "runtime": f"{platform.python_implementation()} {platform.python_version()} "
                   f"(recursion limit {sys.getrecursionlimit()})",
        "unit": "ms per call, median",
        "pipeline": {"default": pipeline(*DEFAULT, 200), "forty_nodes": pipeline(*FORTY, 100)},
        "backward": {"deepest": {"expression": DEEPEST, **ours["deepest"]},
                     "wide": {"products": SIZE, **ours["wide"]}},
        "peer": {"name": "micrograd-style Value (a set of children, a closure per node)",
                 "wide": {"products": SIZE, **peer["wide"]}},
    }))


if __name__ == "__main__":
    main()
