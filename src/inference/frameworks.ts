// A timeline -> the same computation as a short PyTorch script and a short JAX script: the mirror of
// src/tinydag/frameworks.py, string for string (tests/test_frameworks.py); its docstring says why
// each part is written the way it is. The player writes them live as the reader edits the sandbox.

import { ATOM, OPS } from "./ops";
import type { NodeId, Timeline, TimelineNode } from "./types";

export type Framework = "pytorch" | "jax";

export interface Scripts {
  pytorch: string;
  jax: string;
}

export function jsString(x: number): string {
  return String(x); // Python writes these digits in this layout in js_string()
}

export function number(x: number): string {
  if (Object.is(x, -0)) return "-0.0";
  const text = jsString(x);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

export function expressionIn(timeline: Timeline, framework: Framework): string {
  const nodes = new Map(timeline.nodes.map((n) => [n.id, n]));
  const node = (id: NodeId): TimelineNode => nodes.get(id) as TimelineNode;
  const hasVariable = (n: TimelineNode): boolean =>
    n.op === "var" || n.inputs.some((i) => hasVariable(node(i)));
  const operand = (id: NodeId, need: number): string => {
    const [text, level] = write(node(id));
    return level < need ? `(${text})` : text;
  };
  const write = (n: TimelineNode): [string, number] => {
    const { op, inputs } = n;
    const [first = "", second = ""] = inputs;
    const { shape, level, frameworks } = OPS[op];
    if (op === "var") return [n.name ?? "", ATOM];
    if (op === "const") {
      const text = number(n.value);
      return [text, text.startsWith("-") ? OPS.neg.level : ATOM];
    }
    if (shape === "prefix") return [`-${operand(first, OPS["**"].level)}`, level];
    if (shape === "power") return [`${operand(first, ATOM)} ** ${jsString(n.exponent ?? 1)}`, level];
    if (frameworks) {
      let arg = write(node(first))[0];
      if (framework === "pytorch" && !hasVariable(node(first))) arg = `torch.tensor(${arg})`;
      return [`${frameworks[framework]}(${arg})`, ATOM];
    }
    // infix, left-associative: a right operand of the same level keeps its parentheses
    return [`${operand(first, level)} ${op} ${operand(second, level + 1)}`, level];
  };
  return write(node(timeline.root))[0];
}

export function pytorchScript(timeline: Timeline): string {
  return [
    "import torch",
    "",
    "torch.set_default_dtype(torch.float64)",
    "",
    ...timeline.variables.map((v) => `${v.name} = torch.tensor(${number(v.value)}, requires_grad=True)`),
    `out = ${expressionIn(timeline, "pytorch")}`,
    "out.backward()",
    ...timeline.variables.map((v) => `print("${v.name}.grad =", ${v.name}.grad.item())`),
    "",
  ].join("\n");
}

export function jaxScript(timeline: Timeline): string {
  const names = timeline.variables.map((v) => v.name);
  const listed = names.join(", ");
  const slots = names.map((_, i) => i).join(", ") + (names.length === 1 ? "," : "");
  return [
    "import jax",
    "import jax.numpy as jnp",
    "",
    'jax.config.update("jax_enable_x64", True)',
    "",
    "",
    `def out(${listed}):`,
    `    return ${expressionIn(timeline, "jax")}`,
    "",
    "",
    ...timeline.variables.map((v) => `${v.name} = ${number(v.value)}`),
    `grads = jax.grad(out, argnums=(${slots}))(${listed})`,
    ...names.map((name, i) => `print("${name}.grad =", float(grads[${i}]))`),
    "",
  ].join("\n");
}

export function scripts(timeline: Timeline): Scripts | null {
  if (!timeline.variables.length) return null;
  return { pytorch: pytorchScript(timeline), jax: jaxScript(timeline) };
}
