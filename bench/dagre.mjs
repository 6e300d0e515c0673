// The peer layout for `make bench`: @dagrejs/dagre (a dev dependency, never shipped) on the same graphs.
// Reads [{nodes: [{id}], edges: [{id, from, to}]}] on stdin, with the cards' size and gaps in scene units,
// and prints each graph's node centres and edge bend points in scene units on stdout.
import { readFileSync } from "node:fs";
import dagre from "@dagrejs/dagre";

const SCALE = 100; // dagre rounds some sizes: work in hundredths of a scene unit
const { graphs, card, gaps } = JSON.parse(readFileSync(0, "utf8"));
const laidOut = graphs.map((t) => {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "LR", nodesep: gaps.row * SCALE, ranksep: gaps.column * SCALE, edgesep: 0.1 * SCALE });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of t.nodes) g.setNode(n.id, { width: card.width * SCALE, height: card.height * SCALE });
  for (const e of t.edges) g.setEdge(e.from, e.to, {}, e.id);
  const start = performance.now();
  dagre.layout(g);
  const ms = performance.now() - start;
  const nodes = Object.fromEntries(t.nodes.map((n) => [n.id, [g.node(n.id).x / SCALE, g.node(n.id).y / SCALE]]));
  const edges = Object.fromEntries(
    t.edges.map((e) => [e.id, g.edge(e.from, e.to, e.id).points.map((p) => [p.x / SCALE, p.y / SCALE])]),
  );
  return { nodes, edges, ms };
});
process.stdout.write(JSON.stringify(laidOut));
