// Where each visual node sits; mirror of src/tinydag/layout.py (the rules are explained there).
// The same stable sorts over the same float keys, in the same sweep order, give the same rows.
import type { VisualNode } from "./trace";
import type { NodeId } from "./types";

export const COLUMN_GAP = 2.4; // scene units between columns (x)
export const ROW_GAP = 1.5; // scene units between rows (y)
export const DEPTH = 0.3; // z offset, alternating, so the scene has some depth when rotated
export const SWEEPS = 4;

export interface Position {
  column: number;
  row: number;
  x: number;
  y: number;
  z: number;
}

export function layout(nodes: readonly VisualNode[]): Map<NodeId, Position> {
  const column = assignColumns(nodes);
  const [columns, children, parents] = addPlaceholders(nodes, column);
  orderRows(columns, children, parents);
  return numberRows(columns, column);
}

export function assignColumns(nodes: readonly VisualNode[]): Map<NodeId, number> {
  const column = new Map<NodeId, number>();
  for (const node of nodes) {
    // creation order: inputs before the node
    const inner = node.inputs.filter((i) => i.op !== "const").map((i) => column.get(i.id)!);
    column.set(node.id, node.inputs.length === 0 ? 0 : 1 + (inner.length > 0 ? Math.max(...inner) : 0));
  }
  for (const node of nodes) {
    for (const i of node.inputs) if (i.op === "const") column.set(i.id, column.get(node.id)! - 1);
  }
  return column;
}

/**
 * The node ids per column, and each one's neighbours one column left (children) and right (parents).
 * An edge that skips columns gets a placeholder in each column it crosses (Sugiyama's dummy nodes),
 * so the sweeps see it and do not let it cut through the middle of the graph.
 */
export function addPlaceholders(
  nodes: readonly VisualNode[],
  column: ReadonlyMap<NodeId, number>,
): [string[][], Map<string, string[]>, Map<string, string[]>] {
  const columns: string[][] = Array.from({ length: 1 + Math.max(...column.values()) }, () => []);
  for (const node of nodes) columns[column.get(node.id)!]!.push(node.id);
  const children = new Map<string, string[]>(nodes.map((n) => [n.id, []]));
  const parents = new Map<string, string[]>(nodes.map((n) => [n.id, []]));
  for (const node of nodes) {
    node.inputs.forEach((i, slot) => {
      let lower = i.id;
      for (let c = column.get(i.id)! + 1; c < column.get(node.id)!; c++) {
        const dummy = `${i.id}>${node.id}.${slot}@${c}`;
        columns[c]!.push(dummy);
        children.set(dummy, [lower]);
        parents.set(dummy, []);
        parents.get(lower)!.push(dummy);
        lower = dummy;
      }
      parents.get(lower)!.push(node.id);
      children.get(node.id)!.push(lower);
    });
  }
  return [columns, children, parents];
}

/** Sort each column by the barycenter of its neighbours, sweeping right then left, SWEEPS times. */
export function orderRows(
  columns: string[][],
  children: ReadonlyMap<string, string[]>,
  parents: ReadonlyMap<string, string[]>,
): void {
  const width = columns.length;
  // Python recomputes every centered row before each column; only the column just sorted can have
  // changed, so updating that one gives the same numbers for a fraction of the work.
  const place = new Map<NodeId, number>();
  const center = (col: NodeId[]): void => {
    col.forEach((nid, row) => {
      place.set(nid, row - (col.length - 1) / 2);
    });
  };
  columns.forEach(center);

  const sweep = (order: number[], neighbours: ReadonlyMap<NodeId, NodeId[]>): void => {
    for (const c of order) {
      const key = new Map<NodeId, number>();
      for (const nid of columns[c]!) {
        const near = neighbours.get(nid)!;
        // Python's sum() starts at 0 and adds left to right; so does this reduce.
        key.set(
          nid,
          near.length > 0 ? near.reduce((s, m) => s + place.get(m)!, 0) / near.length : place.get(nid)!,
        );
      }
      columns[c] = [...columns[c]!].sort((a, b) => key.get(a)! - key.get(b)!); // stable, like sorted()
      center(columns[c]!);
    }
  };

  const range = (from: number, to: number, step: number): number[] => {
    const out: number[] = [];
    for (let c = from; step > 0 ? c < to : c > to; c += step) out.push(c);
    return out;
  };
  for (let s = 0; s < SWEEPS; s++) {
    sweep(range(1, width, 1), children);
    sweep(range(width - 2, -1, -1), parents);
  }
}

/** Rows and coordinates of the real nodes, placeholders dropped. */
export function numberRows(
  columns: readonly string[][],
  column: ReadonlyMap<NodeId, number>,
): Map<NodeId, Position> {
  const positions = new Map<NodeId, Position>();
  columns.forEach((withDummies, c) => {
    withDummies
      .filter((nid) => column.has(nid))
      .forEach((nid, row, col) => {
        const above = (col.length - 1) / 2 - row; // rows run downwards, y upwards; never -0.0
        const z = (c + row) % 2 === 0 ? DEPTH : -DEPTH;
        positions.set(nid, { column: c, row, x: c * COLUMN_GAP, y: above * ROW_GAP, z });
      });
  });
  return positions;
}
