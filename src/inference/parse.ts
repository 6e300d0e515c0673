// Expression text -> syntax tree, mirror of src/tinydag/parse.py (grammar, spans and messages there).
// Spans count Unicode code points, as Python's str indices do: the text is split with Array.from,
// and the ASCII-only regexes run over `ascii`, a copy with one UTF-16 unit per code point.
import { MAX_CHARS, TinyDagError } from "./errors";
import { FUNCTIONS, type FunctionName } from "./ops";
import { power, Value } from "./value";

export type BinaryOp = "+" | "-" | "*" | "/";
// A number literal as the engine reads it (ASCII digits only, as in Python); the player reads with it too.
export const NUMBER_PATTERN = "(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?";
const NUMBER = new RegExp(NUMBER_PATTERN, "y");
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const OPERATORS = ["**", "+", "-", "*", "/", "(", ")"];
const ALIASES: Record<string, string> = { "\u2212": "-", "\u00d7": "*", "\u00b7": "*" }; // minus, times, middle dot

export interface Token {
  kind: "num" | "name" | "op" | "end";
  text: string;
  start: number;
  end: number;
}

export interface Num {
  kind: "num";
  value: number;
  start: number;
  end: number;
}
export interface Var {
  kind: "var";
  name: string;
  start: number;
  end: number;
}
export interface Unary {
  kind: "unary";
  operand: Node;
  start: number;
  end: number;
} // unary minus
export interface Binary {
  kind: "binary";
  op: BinaryOp;
  left: Node;
  right: Node;
  start: number;
  end: number;
}
export interface Pow {
  kind: "pow";
  base: Node;
  exponent: number;
  exponent_text: string;
  start: number;
  end: number;
}
export interface Paren {
  kind: "paren";
  inner: Node;
  start: number;
  end: number;
} // no node of its own
export interface Call {
  kind: "call";
  name: FunctionName;
  arg: Node;
  start: number;
  end: number;
}
export type Node = Num | Var | Unary | Binary | Pow | Paren | Call;

export function unwrap(node: Node): Node {
  while (node.kind === "paren") node = node.inner;
  return node;
}

function syntax(
  reason: string,
  message: string,
  start: number,
  end: number,
  params: Record<string, string> = {},
): TinyDagError {
  return new TinyDagError("syntax", message, start, end, null, { reason, ...params });
}

export function tokenize(chars: readonly string[]): Token[] {
  const ascii = chars.map((c) => (c.length === 1 ? c : "\uffff")).join(""); // index = code point index
  const tokens: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    const char = chars[i]!;
    const ch = ALIASES[char] ?? char;
    if (" \t\n\r".includes(ch)) {
      i += 1;
      continue;
    }
    const number = match(NUMBER, ascii, i);
    const name = number === null ? match(NAME, ascii, i) : null;
    if (number !== null) {
      tokens.push({ kind: "num", text: number, start: i, end: i + number.length });
      i += number.length;
    } else if (name !== null) {
      tokens.push({ kind: "name", text: name, start: i, end: i + name.length });
      i += name.length;
    } else if (ascii.startsWith("**", i)) {
      tokens.push({ kind: "op", text: "**", start: i, end: i + 2 });
      i += 2;
    } else if (OPERATORS.includes(ch)) {
      tokens.push({ kind: "op", text: ch, start: i, end: i + 1 });
      i += 1;
    } else {
      throw syntax("character", `The character '${char}' is not allowed here.`, i, i + 1, { char });
    }
  }
  tokens.push({ kind: "end", text: "", start: chars.length, end: chars.length });
  return tokens;
}

function match(pattern: RegExp, text: string, at: number): string | null {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0] ?? null;
}

class Parser {
  readonly tokens: Token[];
  pos = 0;

  constructor(readonly source: readonly string[]) {
    this.tokens = tokenize(source);
  }

  get peek(): Token {
    return this.tokens[this.pos]!;
  }

  take(): Token {
    return this.tokens[this.pos++]!;
  }

  at(...ops: string[]): boolean {
    return this.peek.kind === "op" && ops.includes(this.peek.text);
  }

  expr(): Node {
    let node = this.term();
    while (this.at("+", "-")) {
      const op = this.take().text as BinaryOp;
      const right = this.term();
      node = { kind: "binary", op, left: node, right, start: node.start, end: right.end };
    }
    return node;
  }

  term(): Node {
    let node = this.factor();
    while (this.at("*", "/")) {
      const op = this.take().text as BinaryOp;
      const right = this.factor();
      node = { kind: "binary", op, left: node, right, start: node.start, end: right.end };
    }
    return node;
  }

  factor(): Node {
    if (this.at("-")) {
      const minus = this.take();
      const operand = this.factor();
      const literal = unwrap(operand);
      if (literal.kind === "num") {
        // a negative literal is one constant, not an operation
        return { kind: "num", value: -literal.value, start: minus.start, end: operand.end };
      }
      return { kind: "unary", operand, start: minus.start, end: operand.end };
    }
    return this.power();
  }

  power(): Node {
    const base = this.atom();
    if (!this.at("**")) return base;
    this.take();
    const exponent = this.factor();
    if (hasVariable(exponent)) {
      throw new TinyDagError(
        "variable-exponent",
        "The exponent must be a constant, like a ** 3 or a ** (1/2). This engine's pow " +
          "differentiates only the base, so a gradient for anything in the exponent " +
          "would silently stay 0.",
        exponent.start,
        exponent.end,
      );
    }
    return {
      kind: "pow",
      base,
      exponent: fold(exponent),
      exponent_text: this.source.slice(exponent.start, exponent.end).join(""),
      start: base.start,
      end: exponent.end,
    };
  }

  atom(): Node {
    const token = this.take();
    if (token.kind === "num") {
      const value = Number(token.text);
      if (!Number.isFinite(value)) {
        throw new TinyDagError("overflow", `The number ${token.text} is too large.`, token.start, token.end);
      }
      return { kind: "num", value, start: token.start, end: token.end };
    }
    if (token.kind === "name") return this.name(token);
    if (token.kind === "op" && token.text === "(") {
      const inner = this.expr();
      const close = this.expectClose(token);
      return { kind: "paren", inner, start: token.start, end: close.end };
    }
    if (token.kind === "end") {
      throw syntax(
        "end",
        "The expression ends too early: something is missing here.",
        token.start,
        token.end,
      );
    }
    throw syntax("token", `'${token.text}' cannot stand here.`, token.start, token.end, {
      token: token.text,
    });
  }

  name(token: Token): Node {
    const isFunction = (FUNCTIONS as readonly string[]).includes(token.text);
    if (this.at("(")) {
      if (!isFunction) {
        throw new TinyDagError(
          "unknown-function",
          `There is no function '${token.text}'. Available: ${FUNCTIONS.join(", ")}.`,
          token.start,
          token.end,
          null,
          { name: token.text },
        );
      }
      const opening = this.take();
      if (this.at(")")) {
        throw syntax(
          "argument",
          `'${token.text}' needs an input inside its parentheses, like ${token.text}(x).`,
          opening.start,
          this.peek.end,
          { name: token.text },
        );
      }
      const arg = this.expr();
      const close = this.expectClose(opening);
      return { kind: "call", name: token.text as FunctionName, arg, start: token.start, end: close.end };
    }
    if (isFunction) {
      throw syntax(
        "call",
        `'${token.text}' needs parentheses, like ${token.text}(x).`,
        token.start,
        token.end,
        { name: token.text },
      );
    }
    if (token.text.length > 1) {
      // "lo" is most often log on its way: the message says so, not only to multiply letters
      const fn = FUNCTIONS.find((f) => f.startsWith(token.text));
      if (fn !== undefined)
        throw syntax(
          "name-function",
          `'${token.text}' is not a variable (a variable's name is one letter): to call ${fn}, finish its ` +
            `name, for example ${fn}(x); to multiply letters, put * between them.`,
          token.start,
          token.end,
          { name: token.text, function: fn },
        );
      throw syntax(
        "name",
        `'${token.text}': variables are single letters; put * between them, as in a * b.`,
        token.start,
        token.end,
        { name: token.text },
      );
    }
    return { kind: "var", name: token.text, start: token.start, end: token.end };
  }

  expectClose(opening: Token): Token {
    if (!this.at(")")) throw syntax("paren", "This parenthesis is never closed.", opening.start, opening.end);
    return this.take();
  }
}

/** The subtrees a node is computed from (a '**' node's exponent is a number by then). */
export function operands(node: Node): Node[] {
  switch (node.kind) {
    case "binary":
      return [node.left, node.right];
    case "unary":
      return [node.operand];
    case "pow":
      return [node.base];
    case "call":
      return [node.arg];
    case "paren":
      return [node.inner];
    default:
      return [];
  }
}

export function hasVariable(node: Node): boolean {
  return node.kind === "var" || operands(node).some(hasVariable);
}

/**
 * The number a constant subtree stands for, computed as Python computes it, with power() for **
 * (whole and half exponents: the same bits in every language) and the Value class for exp and log
 * (so tests/test_equivalence.py can replay their last bit). A domain error or an overflow names the
 * offending span (there is no graph node yet).
 */
export function fold(node: Node): number {
  let result: number;
  switch (node.kind) {
    case "num":
      return node.value;
    case "paren":
      return fold(node.inner);
    case "unary":
      return -fold(node.operand);
    case "binary":
      result = foldBinary(node, fold(node.left), fold(node.right));
      break;
    case "pow":
      result = foldPower(node, fold(node.base));
      break;
    case "call":
      result = foldCall(node, fold(node.arg));
      break;
    case "var":
      throw new Error("fold() is only called on trees without variables");
  }
  if (!Number.isFinite(result)) {
    throw new TinyDagError(
      "overflow",
      "A number here grows beyond what a float can hold.",
      node.start,
      node.end,
    );
  }
  return result;
}

function foldBinary(node: Binary, left: number, right: number): number {
  if (node.op === "+") return left + right;
  if (node.op === "-") return left - right;
  if (node.op === "*") return left * right;
  if (right === 0) throw domain("Division by zero: the divisor is 0 here.", node.right, "division");
  return left / right;
}

function foldPower(node: Pow, base: number): number {
  if (base === 0 && node.exponent < 0)
    throw domain("0 to a negative power divides by zero.", node, "zero-negative-power");
  if (base < 0 && !Number.isInteger(node.exponent)) {
    throw domain("A negative number to a fractional power is not a real number.", node, "negative-base");
  }
  // Infinity (fold() reports it) where Python's power() raises OverflowError, or ZeroDivisionError
  // when a negative whole exponent divides by |base| ** |k| that underflowed to 0 (1e-300 ** -2)
  return power(base, node.exponent);
}

function foldCall(node: Call, x: number): number {
  if (node.name === "log" && x <= 0) {
    throw domain(
      "log is defined only for positive numbers, and its input here is not positive.",
      node,
      "log",
    );
  }
  return new Value(x)[node.name]().data; // Infinity from exp: fold() reports it
}

function domain(message: string, node: Node, reason: string): TinyDagError {
  return new TinyDagError("domain", message, node.start, node.end, null, { reason });
}

/** Parse an expression, or throw TinyDagError with the span of the problem. */
export function parse(text: string): Node {
  const chars = Array.from(text); // code points, like Python's str
  if (chars.length > MAX_CHARS) {
    throw new TinyDagError(
      "too-large",
      `The expression is longer than ${MAX_CHARS} characters.`,
      MAX_CHARS,
      chars.length,
      null,
      { reason: "characters", limit: String(MAX_CHARS) },
    );
  }
  const parser = new Parser(chars);
  if (parser.peek.kind === "end") {
    throw syntax("empty", "Type an expression, for example (a + b) * c.", 0, chars.length);
  }
  const node = parser.expr();
  const extra = parser.peek;
  if (extra.kind !== "end") {
    if (extra.kind === "op" && extra.text === ")") {
      throw syntax("unopened", "This parenthesis closes nothing.", extra.start, extra.end);
    }
    throw syntax("operator", "An operator is missing before this.", extra.start, extra.end);
  }
  return node;
}
