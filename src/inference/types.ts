// The timeline JSON, as tinydag (Python) writes it and src/inference (TypeScript) rebuilds it.
// Mirror of src/tinydag/types.py; schema: src/tinydag/timeline.schema.json. Field names follow the JSON exactly.

export type NodeId = string; // "n0", "n1", ...; the root is the last one
export type EdgeId = string; // "e0", "e1", ...
export type Op = "var" | "const" | "+" | "*" | "**" | "exp" | "log" | "relu" | "-" | "/" | "neg";
export type ErrorCode =
  | "syntax"
  | "unknown-function"
  | "variable-exponent"
  | "domain"
  | "overflow"
  | "too-large";

export interface Primitive {
  id: string; // "n4.0": a Value a derived node created internally
  op: "const" | "+" | "*" | "**";
  value: number;
  grad: number;
  inputs: string[]; // primitive ids or visual node ids
  local: number[]; // d(this)/d(input), per input
  exponent?: number; // op "**" only
}

export interface TimelineNode {
  id: NodeId;
  op: Op;
  label: string; // the node's source text
  start: number; // span in the expression, in code points
  end: number;
  value: number;
  grad: number; // the final gradient, as Value.backward() leaves it
  inputs: NodeId[]; // one per slot, in order (a * a lists the same id twice)
  column: number;
  row: number;
  x: number;
  y: number;
  z: number;
  name?: string; // op "var"
  exponent?: number; // op "**": the constant exponent (a badge, not a node)
  exponent_label?: string;
  derived?: true; // op "-", "/", "neg"
  primitives?: Primitive[]; // derived nodes: their expansion, children first, output last
}

export interface Edge {
  id: EdgeId;
  from: NodeId; // the input (child)
  to: NodeId; // the operation (parent)
  slot: number;
  local: number; // d(to)/d(from) along this edge
  contribution: number; // what backward adds to from.grad along this edge
}

export interface ForwardStep {
  node: NodeId;
  value: number;
  edges: EdgeId[]; // the edges feeding this node
}

export interface BackwardStep {
  edge: EdgeId;
  parent: NodeId;
  child: NodeId;
  incoming: number; // parent's gradient
  local: number;
  contribution: number; // incoming × local, as the += adds it
  grad_after: number; // child's gradient after the +=
}

export interface Variable {
  name: string;
  node: NodeId;
  value: number;
}

export interface Seed {
  node: NodeId;
  grad: number;
}

export interface Timeline {
  version: 1;
  expression: string;
  root: NodeId;
  variables: Variable[];
  nodes: TimelineNode[];
  edges: Edge[];
  topo: NodeId[]; // children before parents, the order Value.backward() walks in reverse
  forward: ForwardStep[];
  seed: Seed;
  backward: BackwardStep[];
}

export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  params: Record<string, string>;
  start?: number; // input errors (and numeric ones: the offending node's span)
  end?: number;
  node?: NodeId; // numeric errors
}

export interface ErrorResult {
  error: ErrorPayload; // what TinyDagError.toJSON() returns and the CLI prints (exit 2)
}
