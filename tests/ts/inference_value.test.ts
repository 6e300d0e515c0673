// The TypeScript Value class and the helpers that make the port print Python's bytes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { main, parseArgs } from "../../src/inference/cli";
import { buildTimeline, MAX_NODES, TinyDagError, trace, Value } from "../../src/inference/index";
import { rootOf } from "../../src/inference/trace";
import { formatFloat } from "../../src/inference/timeline";

test("the lesson example, by hand", () => {
  const [a, b, c] = [new Value(2), new Value(-3), new Value(10)];
  const loss = a.add(b).mul(c);
  loss.backward();
  assert.deepEqual([loss.data, a.grad, b.grad, c.grad], [-10, 10, 10, -1]);
});

test("derived and reflected operations keep Python's child order", () => {
  const a = new Value(4);
  assert.deepEqual(
    [a.rsub(2).data, a.rdiv(2).data, a.radd(3).data, a.rmul(3).data, a.neg().data],
    [-2, 0.5, 7, 12, -4],
  );
  const rsub = a.rsub(2); // Python: 2 - a == (-a) + 2
  assert.equal(rsub._children[0]!._children[0], a);
  assert.equal(rsub._children[1]!.data, 2);
  const sub = a.sub(2); // Python: a - 2 == a + (-2): the number is negated, no hidden product
  assert.deepEqual([sub._children[1]!.data, sub._children[1]!._children.length], [-2, 0]);
  const out = a.rdiv(2);
  out.backward();
  assert.equal(a.grad, -2 / 16);
});

test("backward() walks the recursive depth-first order, and returns it", () => {
  const [a, b] = [new Value(1), new Value(2)];
  const ab = a.mul(b);
  const out = ab.add(a).mul(ab.add(b.exp()));
  const expected: Value[] = [];
  const seen = new Set<Value>();
  const visit = (v: Value): void => {
    if (seen.has(v)) return;
    seen.add(v);
    v._children.forEach(visit);
    expected.push(v);
  };
  visit(out);
  assert.deepEqual(out.backward(), expected);
});

/** Values on the longest path from v down to a leaf: how deep backward()'s build(v) recurses. */
function longestPath(v: Value, memo = new Map<Value, number>()): number {
  let found = memo.get(v);
  if (found === undefined) {
    found = 1 + Math.max(0, ...v._children.map((c) => longestPath(c, memo)));
    memo.set(v, found);
  }
  return found;
}

test("the recursive build is 79 calls deep at the engine's 40-node limit, far within the stack", () => {
  const deepest = `${"a/(".repeat(38)}a/a${")".repeat(38)}`; // 39 divisions of one variable
  const t = trace(deepest, { a: 1.5 });
  assert.equal(t.nodes.length, MAX_NODES);
  assert.equal(longestPath(rootOf(t).out), 79); // a / b is a * b**-1: two Values per division
  assert.throws(
    () => trace(`a/(${deepest})`, { a: 1.5 }),
    (e) => e instanceof TinyDagError && e.code === "too-large",
  );
  // far beyond what the engine lets through, the same recursion would run out of stack
  let chain = new Value(1);
  for (let i = 0; i < 2_000; i++) chain = chain.add(1);
  assert.equal(chain.backward().length, 4_001); // each add(1) makes a sum and its constant
  for (let i = 0; i < 200_000; i++) chain = chain.add(1);
  assert.throws(() => chain.backward(), RangeError);
});

test("floats print as Python's repr", () => {
  const cases: [number, string][] = [
    [0, "0.0"],
    [-0, "-0.0"],
    [2, "2.0"],
    [-2.5, "-2.5"],
    [0.1, "0.1"],
    [1e-4, "0.0001"],
    [1e-5, "1e-05"],
    [1.5e-7, "1.5e-07"],
    [1e15, "1000000000000000.0"],
    [1e16, "1e+16"],
    [1.2345e16, "1.2345e+16"],
    [123456789012345.6, "123456789012345.6"],
    [1e100, "1e+100"],
    [5e-324, "5e-324"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [7.199999999999999, "7.199999999999999"],
    [1e21, "1e+21"],
    [1e-7, "1e-07"],
  ];
  for (const [x, repr] of cases) assert.equal(formatFloat(x), repr);
});

test("spans count code points, like Python's str", () => {
  try {
    buildTimeline("\u{1F600} + a $", {});
    assert.fail("no error");
  } catch (error) {
    assert.ok(error instanceof TinyDagError);
    assert.deepEqual(error.toJSON(), {
      error: {
        code: "syntax",
        message: "The character '\u{1F600}' is not allowed here.",
        params: { reason: "character", char: "\u{1F600}" },
        start: 0,
        end: 1,
      },
    });
  }
  const t = buildTimeline("\u2212a \u00d7 b", { a: 2, b: 3 });
  assert.deepEqual(
    t.nodes.map((n) => [n.label, n.start, n.end]),
    [
      ["a", 1, 2],
      ["\u2212a", 0, 2],
      ["b", 5, 6],
      ["\u2212a \u00d7 b", 0, 6],
    ],
  );
});

test("command-line values are number literals of the sandbox's grammar, signed", () => {
  const value = (text: string): number => parseArgs(["a", "--set", `a=${text}`])[1].a!;
  assert.deepEqual(
    [value(" 2 "), value("-1e3"), value("+.5"), value("2."), value("1e999")],
    [2, -1000, 0.5, 2, Infinity],
  );
  for (const bad of ["0x10", "1_000", "\u0663", "", "e5", "1e", "nan", "-inf", "\u00a02"]) {
    assert.throws(() => value(bad), /--set expects NAME=VALUE with a number, got "a=/, JSON.stringify(bad));
  }
  assert.deepEqual(parseArgs(["--set", "a=2", "--", "-a + b"]), ["-a + b", { a: 2 }]);
  assert.deepEqual(parseArgs(["-a + b", "--set= a =2"]), ["-a + b", { a: 2 }]);
  assert.throws(() => parseArgs(["--set", "a", "a"]), /--set expects NAME=VALUE with a number, got "a"/);
  assert.throws(() => parseArgs(["--set", "it's\n", "a"]), /got "it's\\n"/);
  assert.throws(() => parseArgs(["a", "--set"]), /got nothing/);
  assert.throws(() => parseArgs(["a", "b"]), /expected exactly one expression/);
  assert.throws(() => parseArgs(["--bogus", "a"]), /unknown option --bogus/);
});

test("a constant exponent folds as Python computes it; only a variable in it is refused", () => {
  const tower = buildTimeline("2 ** 3 ** 2", {});
  assert.deepEqual(
    [tower.nodes.at(-1)!.value, tower.nodes.at(-1)!.exponent, tower.nodes.at(-1)!.exponent_label],
    [512, 9, "3 ** 2"],
  );
  const folded = buildTimeline("a ** (1/2)", { a: 4 });
  const literal = buildTimeline("a ** 0.5", { a: 4 });
  assert.deepEqual(
    folded.nodes.map((n) => [n.op, n.value, n.grad, n.exponent]),
    literal.nodes.map((n) => [n.op, n.value, n.grad, n.exponent]),
  );
  assert.equal(folded.nodes[0]!.grad, 0.25); // 0.5 / sqrt(4), by hand
  const refused = (expression: string): unknown => {
    try {
      buildTimeline(expression, { a: 2, b: 3 });
    } catch (error) {
      assert.ok(error instanceof TinyDagError);
      return [error.code, error.start, error.end, error.node, error.params.reason];
    }
    return "no error";
  };
  assert.deepEqual(refused("a ** (2 * (1 + b))"), ["variable-exponent", 5, 18, null, undefined]);
  assert.deepEqual(refused("a ** (1 / (2 - 2))"), ["domain", 10, 17, null, "division"]);
  assert.deepEqual(refused("a ** ((-8) ** (1/3))"), ["domain", 6, 19, null, "negative-base"]);
  assert.deepEqual(refused("a ** exp(1000)"), ["overflow", 5, 14, null, undefined]);
  // chained: the exponent's own power folds first, and its error names that power's span
  assert.deepEqual(refused("b ** 1e-300 ** -2"), ["overflow", 5, 17, null, undefined]); // 1e600
  assert.deepEqual(refused("a ** (5e-324) ** -2"), ["overflow", 5, 19, null, undefined]);
  assert.deepEqual(refused("a ** 2 ** 1e-160 ** -3"), ["overflow", 10, 22, null, undefined]); // 1e480
  assert.deepEqual(refused("a ** 0 ** -1 ** 2"), ["domain", 5, 17, null, "zero-negative-power"]);
  assert.deepEqual(refused("a ** (-8) ** 2 ** -1"), ["domain", 5, 20, null, "negative-base"]);
  const underflow = buildTimeline("a ** 1e-300 ** 2", { a: 3 }); // 1e-600 is below the smallest float
  assert.deepEqual([underflow.nodes.at(-1)!.exponent, underflow.nodes.at(-1)!.value], [0, 1]);
});

test("a traced power beyond a float is an overflow at its node", () => {
  // 1e600, 1e480, 1e375, 1e600 and 2 ** 1e308: each beyond the largest float, 1.8e308
  const cases: [string, number, number, number][] = [
    ["a ** -2", 1e-300, 0, 7],
    ["a ** -16", 1e-30, 0, 8],
    ["a ** -1.5", 1e-250, 0, 9],
    ["(1e-300) ** -2 * a", 1, 0, 14],
    ["(a) ** 1e308", 2, 0, 12],
  ];
  for (const [expression, a, start, end] of cases) {
    assert.throws(
      () => buildTimeline(expression, { a }),
      (error) => {
        assert.ok(error instanceof TinyDagError);
        assert.deepEqual([error.code, error.start, error.end, error.node], ["overflow", start, end, "n1"]);
        return true;
      },
      expression,
    );
  }
});

test("x ** 0 is 1 with gradient +0, even at 0", () => {
  for (const a of [0, -0, -3, 2.5]) {
    const t = buildTimeline("a ** 0", { a });
    assert.equal(t.nodes.at(-1)!.value, 1);
    assert.ok(Object.is(t.nodes[0]!.grad, 0) && Object.is(t.edges[0]!.local, 0), String(a));
  }
  const zero = new Value(0);
  const out = zero.pow(0);
  out.backward();
  assert.deepEqual([out.data, zero.grad], [1, 0]);
});

test("--help prints the usage on stdout and exits 0", () => {
  let stdout = "";
  let stderr = "";
  const code = main(
    ["a", "--help"],
    (t) => {
      stdout += t;
    },
    (t) => {
      stderr += t;
    },
  );
  assert.deepEqual([code, stderr], [0, ""]);
  assert.match(stdout, /^usage: npm run -s timeline -- "EXPR"/);
  assert.equal(
    main(
      ["--", "--help"],
      () => {},
      () => {},
    ),
    2,
  ); // after --, it is the expression
});
