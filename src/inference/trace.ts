// Syntax tree -> traced DAG, evaluated by Value; mirror of src/tinydag/trace.py.
// Every operation becomes one visual node; derived operations ('-', '/', unary minus) keep the hidden
// primitive Values they created as `primitives`. Backward is replayed edge by edge in Value's own
// topological order and every `child.grad += local_grad * v.grad` is recorded as it happens.
// Python raises OverflowError where JavaScript quietly returns Infinity, so this side checks
// Number.isFinite on the same values at the same points; the error that results is the same.
import { MAX_NODES, TinyDagError } from "./errors";
import { OPS } from "./ops";
import { operands, parse, type Binary, type Call, type Node, type Pow } from "./parse";
import type { NodeId, Op } from "./types";
import { Value } from "./value";

export interface Exit {
  primitive: Value; // the Value whose child is an input of the visual node
  index: number; // which of its children
  local: number; // d(out)/d(input) along the hidden path
}

export interface VisualNode {
  id: NodeId;
  op: Op; // var, const, +, *, **, exp, log, relu, or derived: -, /, neg
  label: string; // its source text
  start: number;
  end: number;
  out: Value; // the Value this node stands for
  inputs: VisualNode[]; // one per slot, in order
  name: string | null; // variables only
  exponent: number | null; // '**' only: the constant exponent
  exponent_label: string | null;
  primitives: Value[]; // Values made here, children first
  exits: Exit[]; // one per slot
}

export interface BackwardEvent {
  primitive: Value; // the v whose gradient is being handed down
  index: number; // which of v's children
  child: Value;
  local: number; // v._local_grads[index]
  incoming: number; // v.grad
  contribution: number; // local * incoming, exactly as backward() adds it
  grad_after: number; // child.grad after the +=
}

export interface Trace {
  expression: string;
  nodes: VisualNode[]; // in creation order; the root is last
  variables: VisualNode[]; // in order of first appearance
  topo: Value[]; // the order Value.backward() walked, children before parents
  events: BackwardEvent[];
}

export const isDerived = (node: VisualNode): boolean => OPS[node.op].derived;
export const rootOf = (t: Trace): VisualNode => t.nodes[t.nodes.length - 1]!;

/** Nodes the graph would have: one per operation or literal, one per distinct variable. */
export function countVisualNodes(tree: Node): number {
  const names = new Set<string>();
  let count = 0;
  const stack: Node[] = [tree];
  while (stack.length > 0) {
    // iterative: a 200-character expression can nest deeply
    const node = stack.pop()!;
    if (node.kind === "var") {
      names.add(node.name);
    } else {
      count += node.kind === "paren" ? 0 : 1; // parentheses make no node
      stack.push(...operands(node));
    }
  }
  return count + names.size;
}

type Extra = Partial<Pick<VisualNode, "name" | "exponent" | "exponent_label">>;

class Tracer {
  readonly nodes: VisualNode[] = [];
  readonly variables = new Map<string, VisualNode>();

  constructor(
    readonly source: readonly string[],
    readonly values: Record<string, number>,
  ) {}

  nextId(): NodeId {
    return `n${this.nodes.length}`;
  }

  domain(message: string, tree: Node, reason: string): TinyDagError {
    return new TinyDagError("domain", message, tree.start, tree.end, this.nextId(), { reason });
  }

  visit(tree: Node): VisualNode {
    switch (tree.kind) {
      case "paren":
        return this.visit(tree.inner);
      case "var": {
        const known = this.variables.get(tree.name);
        if (known !== undefined) return known;
        const value = new Value(this.values[tree.name] ?? 1);
        if (!Number.isFinite(value.data)) {
          throw new TinyDagError(
            "overflow",
            `The value of ${tree.name} is not a finite number.`,
            tree.start,
            tree.end,
            this.nextId(),
          );
        }
        const node = this.add(tree, "var", value, [], { name: tree.name });
        this.variables.set(tree.name, node);
        return node;
      }
      case "num":
        return this.add(tree, "const", new Value(tree.value), []);
      case "binary":
        return this.binary(tree);
      case "unary": {
        const operand = this.visit(tree.operand);
        return this.compute(tree, "neg", () => operand.out.neg(), [operand]);
      }
      case "pow": {
        const base = this.visit(tree.base);
        this.checkPow(tree, base.out.data);
        return this.compute(tree, "**", () => base.out.pow(tree.exponent), [base], {
          exponent: tree.exponent,
          exponent_label: tree.exponent_text,
        });
      }
      case "call":
        return this.call(tree);
    }
  }

  binary(tree: Binary): VisualNode {
    const left = this.visit(tree.left);
    const right = this.visit(tree.right);
    if (tree.op === "/" && right.out.data === 0) {
      // The span marks the divisor alone, as in Python.
      throw this.domain("Division by zero: the divisor is 0 here.", tree.right, "division");
    }
    const apply = { "+": "add", "*": "mul", "-": "sub", "/": "div" } as const;
    const method = apply[tree.op];
    return this.compute(tree, tree.op, () => left.out[method](right.out), [left, right]);
  }

  call(tree: Call): VisualNode {
    const arg = this.visit(tree.arg);
    if (tree.name === "log" && arg.out.data <= 0) {
      throw this.domain(
        "log is defined only for positive numbers, and its input here " + "is not positive.",
        tree,
        "log",
      );
    }
    const method = tree.name;
    return this.compute(tree, method, () => arg.out[method](), [arg]);
  }

  checkPow(tree: Pow, base: number): void {
    const p = tree.exponent;
    if (base === 0 && p < 0)
      throw this.domain("0 to a negative power divides by zero.", tree, "zero-negative-power");
    if (base === 0 && 0 < p && p < 1) {
      throw this.domain(`The slope of x ** ${tree.exponent_text} at x = 0 is infinite.`, tree, "zero-slope");
    }
    if (base < 0 && !Number.isInteger(p)) {
      throw this.domain(
        "A negative number to a fractional power is not a real number.",
        tree,
        "negative-base",
      );
    }
  }

  compute(tree: Node, op: Op, make: () => Value, inputs: VisualNode[], extra: Extra = {}): VisualNode {
    const nodeId = this.nextId();
    const node = this.add(tree, op, make(), inputs, extra);
    // Python: OverflowError from exp or **, ZeroDivisionError from power(), or a non-finite value or
    // local derivative, including the node's own along its hidden path (exits: products can overflow)
    const finite =
      node.primitives.every((v) => Number.isFinite(v.data) && v._local_grads.every(Number.isFinite)) &&
      node.exits.every((exit) => Number.isFinite(exit.local));
    if (!finite) {
      throw new TinyDagError(
        "overflow",
        "A number here grows beyond what a float can hold.",
        tree.start,
        tree.end,
        nodeId,
      );
    }
    return node;
  }

  add(tree: Node, op: Op, out: Value, inputs: VisualNode[], extra: Extra = {}): VisualNode {
    const node: VisualNode = {
      id: this.nextId(),
      op,
      label: this.source.slice(tree.start, tree.end).join(""),
      start: tree.start,
      end: tree.end,
      out,
      inputs,
      name: extra.name ?? null,
      exponent: extra.exponent ?? null,
      exponent_label: extra.exponent_label ?? null,
      primitives: [],
      exits: [],
    };
    collectPrimitives(node);
    this.nodes.push(node);
    return node;
  }
}

/** Walk down from node.out to the inputs' Values: what lies between was made here. */
function collectPrimitives(node: VisualNode): void {
  const outside = new Set(node.inputs.map((i) => i.out));
  const primitives: Value[] = [];
  const exits: Exit[] = [];
  const walk = (v: Value, localToV: number): void => {
    v._children.forEach((child, index) => {
      const local = v._local_grads[index]!;
      if (outside.has(child)) exits.push({ primitive: v, index, local: localToV * local });
      else walk(child, localToV * local);
    });
    primitives.push(v);
  };
  walk(node.out, 1);
  node.primitives = primitives;
  node.exits = exits;
}

/**
 * Value.backward(), then every `+=` it made, in the order it made them (see trace.py: a node's grad
 * is complete before it is handed on, and a running sum from 0 adds the same numbers in the same order).
 */
export function recordBackward(root: Value): [Value[], BackwardEvent[]] {
  const topo = root.backward();
  const events: BackwardEvent[] = [];
  const running = new Map<Value, number>(); // each child's grad so far
  for (let k = topo.length - 1; k >= 0; k--) {
    const v = topo[k]!;
    v._children.forEach((child, index) => {
      const localGrad = v._local_grads[index]!;
      const contribution = localGrad * v.grad;
      const gradAfter = (running.get(child) ?? 0) + contribution;
      running.set(child, gradAfter);
      events.push({
        primitive: v,
        index,
        child,
        local: localGrad,
        incoming: v.grad,
        contribution,
        grad_after: gradAfter,
      });
    });
  }
  return [topo, events];
}

// Texts already parsed and within the size limit, with their code points: a slider's drag traces the
// same text at every step, and its parse was a quarter of the engine's time on a 40-node graph.
const checked = new Map<string, [Node, string[]]>();
const CHECKED_KEPT = 8; // page 00's gears trace three texts in turn

/** The tree of a text and its code points; throws TinyDagError where it does not parse or is too large. */
function checkedTree(expression: string): [Node, string[]] {
  const known = checked.get(expression);
  if (known) return known;
  const tree = parse(expression);
  const chars = Array.from(expression);
  const count = countVisualNodes(tree);
  if (count > MAX_NODES) {
    // The count says how much to cut (walk 42: a learner guessed).
    throw new TinyDagError(
      "too-large",
      `This expression makes ${count} nodes; at most ${MAX_NODES} keep the graph readable. Try a shorter expression.`,
      0,
      chars.length,
      null,
      { reason: "nodes", limit: String(MAX_NODES), count: String(count) },
    );
  }
  if (checked.size >= CHECKED_KEPT) checked.clear();
  checked.set(expression, [tree, chars]);
  return [tree, chars];
}

/** Parse, check the size, evaluate with Value and record backward. */
export function trace(expression: string, values: Record<string, number>): Trace {
  const [tree, chars] = checkedTree(expression);
  const tracer = new Tracer(chars, values);
  tracer.visit(tree);
  const [topo, events] = recordBackward(tracer.nodes[tracer.nodes.length - 1]!.out);
  const owner = new Map<Value, VisualNode>();
  for (const n of tracer.nodes) for (const p of n.primitives) owner.set(p, n);
  for (const event of events) {
    if (!Number.isFinite(event.grad_after)) {
      const node = owner.get(event.child)!;
      throw new TinyDagError(
        "overflow",
        "A gradient here grows beyond what a float can hold.",
        node.start,
        node.end,
        node.id,
      );
    }
  }
  return { expression, nodes: tracer.nodes, variables: [...tracer.variables.values()], topo, events };
}
