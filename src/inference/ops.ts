// Every operation a graph can hold, one row each: what the engine, the frameworks panel, the cards,
// the spoken names and the code listing need to know about it. Mirror of src/tinydag/ops.py (the two
// tables are compared in tests/test_equivalence.py). `satisfies Record<Op, OpSpec>`: an operation
// added to Op without its row, or a row without a field, does not compile; tests/ts/ops.test.ts then
// runs each row's example through the parser, the engine, the strings and the listing.
import type { Op } from "./types";

/** How the operation is written: a leaf, `a + b`, `-a`, `a ** 2`, or a call `exp(a)`. */
export type Shape = "leaf" | "infix" | "prefix" | "power" | "call";

export interface Frameworks {
  readonly pytorch: string;
  readonly jax: string;
}

export interface OpSpec {
  readonly arity: 0 | 1 | 2; // visual inputs (a power's exponent is a badge, not an input)
  readonly shape: Shape;
  readonly glyph: string; // the card's large symbol; "" for a leaf (it shows its name or number)
  readonly level: number; // Python's binding strength of the written form; 5 binds tightest
  readonly derived: boolean; // made of primitives by Value (a − b = a + (b · −1)), no derivative of its own
  readonly code: string | null; // text of the listing's line that computes it (src/microgpt_annotated.py)
  readonly words: string; // the strings key (src/player/strings/*.yml) that names it in speech
  readonly frameworks: Frameworks | null; // a call's name in PyTorch and in JAX
  readonly example: string; // a short expression whose root is this operation
}

export const ATOM = 5; // a name, a call, a parenthesised expression, a non-negative number

export const OPS = {
  var: {
    arity: 0,
    shape: "leaf",
    glyph: "",
    level: ATOM,
    derived: false,
    code: null,
    words: "card_op_var",
    frameworks: null,
    example: "a",
  },
  const: {
    arity: 0,
    shape: "leaf",
    glyph: "",
    level: ATOM,
    derived: false,
    code: null,
    words: "card_op_const",
    frameworks: null,
    example: "2",
  },
  "+": {
    arity: 2,
    shape: "infix",
    glyph: "+",
    level: 1,
    derived: false,
    code: "self.data + other.data",
    words: "card_op_add",
    frameworks: null,
    example: "a + b",
  },
  "*": {
    arity: 2,
    shape: "infix",
    glyph: "×",
    level: 2,
    derived: false,
    code: "self.data * other.data",
    words: "card_op_mul",
    frameworks: null,
    example: "a * b",
  },
  "**": {
    arity: 1,
    shape: "power",
    glyph: "**",
    level: 4,
    derived: false,
    code: "power(self.data, k)",
    words: "card_op_pow",
    frameworks: null,
    example: "a ** 3",
  },
  relu: {
    arity: 1,
    shape: "call",
    glyph: "relu",
    level: ATOM,
    derived: false,
    code: "max(0.0, self.data)",
    words: "card_op_relu",
    frameworks: { pytorch: "torch.relu", jax: "jax.nn.relu" },
    example: "relu(a)",
  },
  exp: {
    arity: 1,
    shape: "call",
    glyph: "exp",
    level: ATOM,
    derived: false,
    code: "math.exp(self.data)",
    words: "card_op_exp",
    frameworks: { pytorch: "torch.exp", jax: "jnp.exp" },
    example: "exp(a)",
  },
  log: {
    arity: 1,
    shape: "call",
    glyph: "log",
    level: ATOM,
    derived: false,
    code: "math.log(self.data)",
    words: "card_op_log",
    frameworks: { pytorch: "torch.log", jax: "jnp.log" },
    example: "log(a)",
  },
  "-": {
    arity: 2,
    shape: "infix",
    glyph: "−",
    level: 1,
    derived: true,
    code: "self + (-other)",
    words: "card_op_sub",
    frameworks: null,
    example: "a - b",
  },
  "/": {
    arity: 2,
    shape: "infix",
    glyph: "÷",
    level: 2,
    derived: true,
    code: "self * other**-1",
    words: "card_op_div",
    frameworks: null,
    example: "a / b",
  },
  neg: {
    arity: 1,
    shape: "prefix",
    glyph: "−",
    level: 3,
    derived: true,
    code: "self * -1",
    words: "card_op_neg",
    frameworks: null,
    example: "-a",
  },
} as const satisfies Record<Op, OpSpec>;

/** The operations written as a call, `name(x)`: exactly the rows whose shape is "call". */
export type FunctionName = { [K in Op]: (typeof OPS)[K]["shape"] extends "call" ? K : never }[Op];

export const FUNCTIONS = (Object.keys(OPS) as Op[]).filter(
  (op): op is FunctionName => OPS[op].shape === "call",
);
