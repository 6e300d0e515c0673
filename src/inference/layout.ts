// Where each visual node sits; mirror of src/tinydag/layout.py (the rules are explained there).
// The same stable sorts, medians and means over the same floats, in the same order, give the same rows
// and heights.
import type { VisualNode } from "./trace";
import type { NodeId } from "./types";

export const COLUMN_GAP = 2.4; // scene units between columns (x)
export const ROW_GAP = 1.5; // scene units between the cards of one column (y)
export const SWEEPS = 4; // ordering sweeps (right then left)
export const SETTLE = 11; // placement sweeps (alternately right and left, ending rightwards)

export interface Position {
  column: number;
  row: number;
  x: number;
  y: number;
  z: number;
}

// The last graph's positions, by its shape: a slider step recomputes the timeline with new values on
// the same graph, and the layout reads nothing but ids and inputs (Python lays out once per build).
let last: { shape: string; positions: Map<NodeId, Position> } | null = null;

export function layout(nodes: readonly VisualNode[]): Map<NodeId, Position> {
  const shape = nodes.map((n) => `${n.id}<${n.inputs.map((i) => i.id).join()}`).join(";");
  if (last?.shape !== shape) {
    const column = assignColumns(nodes);
    const [columns, children, parents] = addPlaceholders(nodes, column);
    orderRows(columns, children, parents);
    const height = placeRows(columns, children, parents, column);
    last = { shape, positions: numberRows(columns, column, height) };
  }
  return new Map(last.positions); // a copy: what a caller does with it reaches no later caller
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
  // Python recomputes every centered row before each column; only the column just sorted can have
  // changed, so updating that one gives the same numbers for a fraction of the work.
  const place = new Map<NodeId, number>();
  const center = (col: NodeId[]): void => {
    col.forEach((nid, row) => {
      place.set(nid, row - (col.length - 1) / 2);
    });
  };
  columns.forEach(center);
  const sort = (c: number, neighbours: ReadonlyMap<NodeId, NodeId[]>): void => {
    const key = new Map<NodeId, number>();
    for (const nid of columns[c]!) {
      const near = neighbours.get(nid)!;
      // Python's sum() starts at 0 and adds left to right; so does this reduce.
      key.set(nid, near.length ? near.reduce((s, m) => s + place.get(m)!, 0) / near.length : place.get(nid)!);
    }
    center(columns[c]!.sort((a, b) => key.get(a)! - key.get(b)!)); // stable, like sorted()
  };
  let best = columns.map((col) => [...col]);
  let fewest = countCrossings(columns, parents);
  for (let s = 0; s < SWEEPS && fewest; s++) {
    for (let c = 1; c < columns.length; c++) sort(c, children);
    for (let c = columns.length - 2; c >= 0; c--) sort(c, parents);
    const crossings = countCrossings(columns, parents);
    if (crossings < fewest) [best, fewest] = [columns.map((col) => [...col]), crossings];
  }
  columns.splice(0, columns.length, ...best);
}

/** Pairs of edges between neighbouring columns whose ends lie in opposite orders. */
export function countCrossings(columns: readonly string[][], parents: ReadonlyMap<string, string[]>): number {
  let total = 0;
  columns.forEach((col, c) => {
    const right = columns[c + 1] ?? [];
    const ends = col.flatMap((nid, row) => parents.get(nid)!.map((p) => [row, right.indexOf(p)] as const));
    ends.forEach(([top, end], k) => {
      for (const [otherTop, otherEnd] of ends.slice(k + 1))
        if ((top - otherTop) * (end - otherEnd) < 0) total++;
    });
  });
  return total;
}

/**
 * Heights (y, upwards) for every id: cards start evenly spaced and centred in their column; then, a
 * column at a time, each aims at the median height of its neighbours on the side the sweep comes from
 * (inputs sweeping right, consumers sweeping left) and the column's cards take the heights nearest their
 * aims that keep the order and ROW_GAP between them (pool adjacent violators); a placeholder takes its
 * aim. SETTLE sweeps, the first and the last rightwards (operations over their inputs).
 */
export function placeRows(
  columns: readonly string[][],
  children: ReadonlyMap<string, string[]>,
  parents: ReadonlyMap<string, string[]>,
  column: ReadonlyMap<NodeId, number>,
): Map<string, number> {
  const height = new Map<string, number>();
  const cardsOf = (col: readonly string[]): string[] => col.filter((nid) => column.has(nid));
  for (const col of columns) {
    const cards = cardsOf(col);
    cards.forEach((nid, row) => {
      height.set(nid, ((cards.length - 1) / 2 - row) * ROW_GAP);
    });
  }
  const aim = (nid: string, neighbours: ReadonlyMap<string, string[]>): number => {
    const near = neighbours
      .get(nid)!
      .map((m) => height.get(m)!)
      .sort((a, b) => a - b);
    const middle = near.length >> 1;
    return !near.length
      ? height.get(nid)!
      : near.length % 2
        ? near[middle]!
        : (near[middle - 1]! + near[middle]!) / 2;
  };

  const settle = (c: number, neighbours: ReadonlyMap<string, string[]>): void => {
    const aims = new Map(columns[c]!.map((nid) => [nid, aim(nid, neighbours)]));
    const cards = cardsOf(columns[c]!);
    const blocks: number[][] = []; // [sum, count] of the aims shifted by their rows' gaps
    cards.forEach((nid, row) => {
      blocks.push([aims.get(nid)! + row * ROW_GAP, 1]);
      for (
        let last: number[] | undefined;
        (last = blocks.at(-2)) && last[0]! / last[1]! < blocks.at(-1)![0]! / blocks.at(-1)![1]!;
      ) {
        const [total, count] = blocks.pop()!;
        last[0]! += total!;
        last[1]! += count!;
      }
    });
    let row = 0;
    for (const [total, count] of blocks)
      for (let k = 0; k < count!; k++, row++) height.set(cards[row]!, total! / count! - row * ROW_GAP);
    for (const nid of columns[c]!) if (!column.has(nid)) height.set(nid, aims.get(nid)!);
  };

  for (let s = 0; s < SETTLE; s++)
    for (let k = 0; k < columns.length; k++)
      settle(s % 2 ? columns.length - 1 - k : k, s % 2 ? parents : children);
  return height;
}

/** Rows and coordinates of the real nodes, placeholders dropped; the cards' heights centred on 0. */
export function numberRows(
  columns: readonly string[][],
  column: ReadonlyMap<NodeId, number>,
  height: ReadonlyMap<string, number>,
): Map<NodeId, Position> {
  const ys = [...column.keys()].map((nid) => height.get(nid)!);
  const middle = (Math.max(...ys) + Math.min(...ys)) / 2;
  const positions = new Map<NodeId, Position>();
  columns.forEach((withDummies, c) => {
    withDummies
      .filter((nid) => column.has(nid))
      .forEach((nid, row) => {
        positions.set(nid, { column: c, row, x: c * COLUMN_GAP, y: height.get(nid)! - middle + 0, z: 0 }); // never -0
      });
  });
  return positions;
}
