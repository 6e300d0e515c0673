// Every operation a graph can hold, one row each (in two tables, below): what the engine, the
// frameworks panel, the cards, the spoken names and the code listing need to know about it. Mirror of
// src/tinydag/ops.py (OPS and Python's table are compared in tests/test_equivalence.py).
// `satisfies Record<Op, …>`: an operation added to Op without its row, or a row without a field, does
// not compile; tests/ts/engine-ops.test.ts then runs each row's example through the parser, the
// engine, the strings and the listing.
import type { Op } from "./types";

/** How the operation is written: a leaf, `a + b`, `-a`, `a ** 2`, or a call `exp(a)`. */
export type Shape = "leaf" | "infix" | "prefix" | "power" | "call";

export interface Frameworks {
  readonly pytorch: string;
  readonly jax: string;
}

/** How an operation is shown: what the player draws, says and marks in the listing. */
export interface OpLook {
  readonly shape: Shape;
  readonly glyph: string; // the card's large symbol; "" for a leaf (it shows its name or number)
  readonly code: string | null; // text of the listing's line that computes it (src/microgpt_annotated.py)
  readonly words: string; // the strings key (src/player/strings/*.yml) that names it in speech
}

/** What the engine, the frameworks panel and the tests know of it besides. */
export interface OpRules {
  readonly arity: 0 | 1 | 2; // visual inputs (a power's exponent is a badge, not an input)
  readonly level: number; // Python's binding strength of the written form; 5 binds tightest
  readonly derived: boolean; // made of primitives by Value (a − b = a + (b · −1)), no derivative of its own
  readonly frameworks: Frameworks | null; // a call's name in PyTorch and in JAX
  readonly example: string; // a short expression whose root is this operation
}

export type OpSpec = OpLook & OpRules;

export const ATOM = 5; // a name, a call, a parenthesised expression, a non-negative number

// The row of an operation is split in two tables, its look and its rules, so that the player's
// bundle carries only the looks (engine.js, loaded when the reader edits, carries both).
export const LOOKS = {
  var: { shape: "leaf", glyph: "", code: null, words: "card_op_var" },
  const: { shape: "leaf", glyph: "", code: null, words: "card_op_const" },
  "+": { shape: "infix", glyph: "+", code: "self.data + other.data", words: "card_op_add" },
  "*": { shape: "infix", glyph: "×", code: "self.data * other.data", words: "card_op_mul" },
  "**": { shape: "power", glyph: "**", code: "power(self.data, k)", words: "card_op_pow" },
  relu: { shape: "call", glyph: "relu", code: "max(0.0, self.data)", words: "card_op_relu" },
  exp: { shape: "call", glyph: "exp", code: "math.exp(self.data)", words: "card_op_exp" },
  log: { shape: "call", glyph: "log", code: "math.log(self.data)", words: "card_op_log" },
  "-": { shape: "infix", glyph: "−", code: "self + (-other)", words: "card_op_sub" },
  "/": { shape: "infix", glyph: "÷", code: "self * other**-1", words: "card_op_div" },
  neg: { shape: "prefix", glyph: "−", code: "self * -1", words: "card_op_neg" },
} as const satisfies Record<Op, OpLook>;

const RULES = {
  var: { arity: 0, level: ATOM, derived: false, frameworks: null, example: "a" },
  const: { arity: 0, level: ATOM, derived: false, frameworks: null, example: "2" },
  "+": { arity: 2, level: 1, derived: false, frameworks: null, example: "a + b" },
  "*": { arity: 2, level: 2, derived: false, frameworks: null, example: "a * b" },
  "**": { arity: 1, level: 4, derived: false, frameworks: null, example: "a ** 3" },
  relu: {
    arity: 1,
    level: ATOM,
    derived: false,
    frameworks: { pytorch: "torch.relu", jax: "jax.nn.relu" },
    example: "relu(a)",
  },
  exp: {
    arity: 1,
    level: ATOM,
    derived: false,
    frameworks: { pytorch: "torch.exp", jax: "jnp.exp" },
    example: "exp(a)",
  },
  log: {
    arity: 1,
    level: ATOM,
    derived: false,
    frameworks: { pytorch: "torch.log", jax: "jnp.log" },
    example: "log(a)",
  },
  "-": { arity: 2, level: 1, derived: true, frameworks: null, example: "a - b" },
  "/": { arity: 2, level: 2, derived: true, frameworks: null, example: "a / b" },
  neg: { arity: 1, level: 3, derived: true, frameworks: null, example: "-a" },
} as const satisfies Record<Op, OpRules>;

/** The whole table, row by row in LOOKS' order (tests/test_equivalence.py compares it with Python's). */
export const OPS = /* @__PURE__ */ (() =>
  Object.fromEntries((Object.keys(LOOKS) as Op[]).map((op) => [op, { ...RULES[op], ...LOOKS[op] }])))() as {
  readonly [K in Op]: (typeof RULES)[K] & (typeof LOOKS)[K];
};

/** The operations written as a call, `name(x)`: exactly the rows whose shape is "call". */
export type FunctionName = { [K in Op]: (typeof LOOKS)[K]["shape"] extends "call" ? K : never }[Op];

export const FUNCTIONS = (Object.keys(LOOKS) as Op[]).filter(
  (op): op is FunctionName => LOOKS[op].shape === "call",
);
