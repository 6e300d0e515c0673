// Where each visual node sits; mirror of src/tinydag/layout.py (the rules are explained there).
// The same stable sorts, medians and means over the same floats, in the same order, give the same rows
// and heights.
import type { VisualNode } from "./trace";
import type { NodeId } from "./types";

export const COLUMN_GAP = 2.4; // scene units between columns (x)
export const ROW_GAP = 1.5; // scene units between the cards of one column (y)
export const DEPTH = 0.3; // z offset, alternating, so the scene has some depth when rotated
export const SWEEPS = 4; // ordering sweeps (right then left)
export const SETTLE = 12; // placement sweeps (alternately right and left)

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
  const height = placeRows(columns, children, parents, column);
  return numberRows(columns, column, height);
}

/** Longest distance to the root, counted from the right (creation order walked backwards). */
export function assignColumns(nodes: readonly VisualNode[]): Map<NodeId, number> {
  const rank = new Map<NodeId, number>();
  for (let k = nodes.length - 1; k >= 0; k--) {
    const node = nodes[k]!;
    if (!rank.has(node.id)) rank.set(node.id, 0); // the root, the only node nothing consumes
    const next = rank.get(node.id)! + 1;
    for (const i of node.inputs) rank.set(i.id, Math.max(rank.get(i.id) ?? 0, next));
  }
  const deepest = Math.max(...rank.values());
  return new Map(nodes.map((n) => [n.id, deepest - rank.get(n.id)!]));
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

/**
 * Sort each column by the barycenter of its neighbours, sweeping right then left, SWEEPS times;
 * keep the first ordering with the fewest crossings (the expression's own order when it has none).
 */
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
  let best = columns.map((col) => [...col]);
  let fewest = countCrossings(columns, parents);
  for (let s = 0; s < SWEEPS && fewest > 0; s++) {
    sweep(range(1, width, 1), children);
    sweep(range(width - 2, -1, -1), parents);
    const crossings = countCrossings(columns, parents);
    if (crossings < fewest) {
      best = columns.map((col) => [...col]);
      fewest = crossings;
    }
  }
  columns.splice(0, columns.length, ...best);
}

/** Pairs of edges between neighbouring columns whose ends lie in opposite orders. */
export function countCrossings(columns: readonly string[][], parents: ReadonlyMap<string, string[]>): number {
  let total = 0;
  for (let c = 0; c + 1 < columns.length; c++) {
    const right = new Map(columns[c + 1]!.map((nid, row) => [nid, row]));
    const tops: number[] = [];
    const ends: number[] = [];
    columns[c]!.forEach((nid, row) => {
      for (const p of parents.get(nid)!) {
        tops.push(row);
        ends.push(right.get(p)!);
      }
    });
    for (let k = 0; k < tops.length; k++)
      for (let m = k + 1; m < tops.length; m++) if ((tops[k]! - tops[m]!) * (ends[k]! - ends[m]!) < 0) total++;
  }
  return total;
}

/**
 * Heights (y, upwards) for every id: cards start evenly spaced and centred in their column; then, a
 * column at a time, each aims at the median height of its neighbours and the column's cards take the
 * heights nearest their aims that keep the order and ROW_GAP between them (pool adjacent violators);
 * a placeholder takes its aim. The sweeps run right, left, right... SETTLE times.
 */
export function placeRows(
  columns: readonly string[][],
  children: ReadonlyMap<string, string[]>,
  parents: ReadonlyMap<string, string[]>,
  column: ReadonlyMap<NodeId, number>,
): Map<string, number> {
  const height = new Map<string, number>();
  for (const col of columns) {
    const cards = col.filter((nid) => column.has(nid));
    cards.forEach((nid, row) => {
      height.set(nid, ((cards.length - 1) / 2 - row) * ROW_GAP);
    });
  }
  for (const col of columns) {
    // a placeholder starts level with the end it leaves from
    for (const nid of col) if (!column.has(nid)) height.set(nid, height.get(children.get(nid)![0]!)!);
  }

  const aim = (nid: string): number => {
    const near = [...children.get(nid)!, ...parents.get(nid)!].map((m) => height.get(m)!).sort((a, b) => a - b);
    if (near.length === 0) return height.get(nid)!;
    const middle = Math.floor(near.length / 2);
    return near.length % 2 ? near[middle]! : (near[middle - 1]! + near[middle]!) / 2;
  };

  const settle = (c: number): void => {
    const aims = new Map(columns[c]!.map((nid) => [nid, aim(nid)]));
    const cards = columns[c]!.filter((nid) => column.has(nid));
    const blocks: [number, number][] = []; // [sum, count] of the aims shifted by their rows' gaps
    cards.forEach((nid, row) => {
      blocks.push([aims.get(nid)! + row * ROW_GAP, 1]);
      while (blocks.length > 1) {
        const [last, before] = [blocks.at(-1)!, blocks.at(-2)!];
        if (!(before[0] / before[1] < last[0] / last[1])) break;
        blocks.pop();
        before[0] += last[0];
        before[1] += last[1];
      }
    });
    let row = 0;
    for (const [total, count] of blocks) {
      for (let k = 0; k < count; k++) {
        height.set(cards[row]!, total / count - row * ROW_GAP);
        row++;
      }
    }
    for (const nid of columns[c]!) if (!column.has(nid)) height.set(nid, aims.get(nid)!);
  };

  const width = columns.length;
  for (let s = 0; s < SETTLE; s++) {
    if (s % 2 === 0) for (let c = 0; c < width; c++) settle(c);
    else for (let c = width - 1; c >= 0; c--) settle(c);
  }
  return height;
}

/** Rows and coordinates of the real nodes, placeholders dropped; the cards' heights centred on 0. */
export function numberRows(
  columns: readonly string[][],
  column: ReadonlyMap<NodeId, number>,
  height: ReadonlyMap<string, number>,
): Map<NodeId, Position> {
  let top = Number.NEGATIVE_INFINITY;
  let bottom = Number.POSITIVE_INFINITY;
  for (const [nid, y] of height) {
    if (!column.has(nid)) continue;
    top = Math.max(top, y);
    bottom = Math.min(bottom, y);
  }
  const middle = (top + bottom) / 2;
  const positions = new Map<NodeId, Position>();
  columns.forEach((withDummies, c) => {
    withDummies
      .filter((nid) => column.has(nid))
      .forEach((nid, row) => {
        const y = height.get(nid)! - middle + 0; // never -0
        const z = (c + row) % 2 === 0 ? DEPTH : -DEPTH;
        positions.set(nid, { column: c, row, x: c * COLUMN_GAP, y, z });
      });
  });
  return positions;
}
