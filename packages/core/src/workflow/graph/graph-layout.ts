/**
 * A deterministic layered layout of a workflow graph, for drawing it without a layout
 * library: the initial state on top, each state one row below the furthest state that
 * leads to it (back edges, found depth-first from the initial state, do not count), groups
 * (parallel branches, loop bodies) as boxes holding their states side by side. Edges that
 * go back up are routed around the right-hand side. Same graph, same picture.
 */
import type { GraphEdge, GraphEdgeKind, GraphNode, WorkflowGraph } from "./graph";

type LayoutBox = {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  node: GraphNode;
  /** A parallel or loop state drawn as a box around its states. */
  isGroup: boolean;
};
type LayoutEdge = GraphEdge & {
  /** Polyline points; empty when the edge is shown by containment (a branch or loop body). */
  points: [number, number][];
  labelAt?: [number, number];
  back: boolean;
};
type GraphLayout = { width: number; height: number; boxes: LayoutBox[]; edges: LayoutEdge[] };

const NODE_W = 150;
const NODE_H = 44;
const GAP_X = 28;
const GAP_Y = 52;
const PAD = 12;
const HEADER = 24;
const MARGIN = 16;
const BACK_STEP = 10;

type Size = { w: number; h: number };

const CONTAINED: ReadonlySet<GraphEdgeKind> = new Set(["branch", "body", "loop_back"]);

export const layoutGraph = (graph: WorkflowGraph): GraphLayout => {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const childrenOf = (n: GraphNode) =>
    (n.children ?? []).filter((c) => byId.get(c)?.group === n.id);
  const isGroup = (n: GraphNode) => childrenOf(n).length > 0;

  const sizes = new Map<string, Size>();
  const sizeOf = (n: GraphNode, seen: Set<string> = new Set()): Size => {
    const known = sizes.get(n.id);
    if (known) return known;
    let size: Size = { w: NODE_W, h: NODE_H };
    if (isGroup(n) && !seen.has(n.id)) {
      seen.add(n.id);
      const kids = childrenOf(n).map((c) => sizeOf(byId.get(c)!, seen));
      size = {
        w: Math.max(
          NODE_W,
          kids.reduce((s, k) => s + k.w, 0) + GAP_X * (kids.length - 1) + 2 * PAD,
        ),
        h: HEADER + Math.max(...kids.map((k) => k.h)) + PAD,
      };
    }
    sizes.set(n.id, size);
    return size;
  };

  // Each node's top-level ancestor: the box its edges attach to in the row layout.
  const topOf = (id: string): string => {
    let cur = id;
    for (let i = 0; i < graph.nodes.length; i++) {
      const g = byId.get(cur)?.group;
      if (g === undefined) break;
      cur = g;
    }
    return cur;
  };
  const top = graph.nodes.filter((n) => n.group === undefined);
  const out = new Map<string, string[]>(top.map((n) => [n.id, []]));
  for (const e of graph.edges) {
    const a = topOf(e.from);
    const b = topOf(e.to);
    if (a !== b && out.has(a) && out.has(b)) out.get(a)!.push(b);
  }

  // Depth-first from the initial state (then any state not reached), marking back edges.
  const order: string[] = [];
  const state = new Map<string, "open" | "done">();
  const back = new Set<string>();
  const visit = (start: string) => {
    const stack: { id: string; i: number }[] = [{ id: start, i: 0 }];
    state.set(start, "open");
    order.push(start);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const next = out.get(frame.id)![frame.i++];
      if (next === undefined) {
        state.set(frame.id, "done");
        stack.pop();
      } else if (state.get(next) === "open") back.add(`${frame.id}\u0000${next}`);
      else if (!state.has(next)) {
        state.set(next, "open");
        order.push(next);
        stack.push({ id: next, i: 0 });
      }
    }
  };
  const initialTop = out.has(graph.initial) ? graph.initial : topOf(graph.initial);
  if (out.has(initialTop)) visit(initialTop);
  for (const n of top) if (!state.has(n.id)) visit(n.id);

  // Longest path over forward edges, in a topological order of them.
  const rank = new Map<string, number>(order.map((id) => [id, 0]));
  const indegree = new Map<string, number>(order.map((id) => [id, 0]));
  const forward = (a: string, b: string) => !back.has(`${a}\u0000${b}`) && a !== b;
  for (const a of order)
    for (const b of out.get(a)!) if (forward(a, b)) indegree.set(b, indegree.get(b)! + 1);
  const queue = order.filter((id) => indegree.get(id) === 0);
  for (let qi = 0; qi < queue.length; qi++) {
    const a = queue[qi]!;
    for (const b of out.get(a)!) {
      if (!forward(a, b)) continue;
      rank.set(b, Math.max(rank.get(b)!, rank.get(a)! + 1));
      indegree.set(b, indegree.get(b)! - 1);
      if (indegree.get(b) === 0) queue.push(b);
    }
  }

  const rows: string[][] = [];
  for (const id of order) (rows[rank.get(id)!] ??= []).push(id);
  const rowSizes = rows.map((row) => {
    const s = row.map((id) => sizeOf(byId.get(id)!));
    return {
      w: s.reduce((t, x) => t + x.w, 0) + GAP_X * (row.length - 1),
      h: Math.max(...s.map((x) => x.h)),
    };
  });
  const innerW = Math.max(NODE_W, ...rowSizes.map((r) => r.w));

  const boxes = new Map<string, LayoutBox>();
  const place = (n: GraphNode, x: number, y: number) => {
    const { w, h } = sizeOf(n);
    const group = isGroup(n);
    boxes.set(n.id, { id: n.id, x, y, w, h, node: n, isGroup: group });
    if (!group) return;
    let cx = x + PAD;
    for (const c of childrenOf(n)) {
      const child = byId.get(c)!;
      if (boxes.has(c)) continue;
      place(child, cx, y + HEADER);
      cx += sizeOf(child).w + GAP_X;
    }
  };
  let y = MARGIN;
  rows.forEach((row, i) => {
    const size = rowSizes[i]!;
    let x = MARGIN + (innerW - size.w) / 2;
    for (const id of row) {
      const n = byId.get(id)!;
      const s = sizeOf(n);
      place(n, x, y + (size.h - s.h) / 2);
      x += s.w + GAP_X;
    }
    y += size.h + GAP_Y;
  });

  let rightmost = MARGIN + innerW;
  let backCount = 0;
  const edges: LayoutEdge[] = graph.edges.map((e) => {
    const a = boxes.get(e.from);
    const b = boxes.get(e.to);
    if (!a || !b || CONTAINED.has(e.kind))
      return { ...e, points: [], back: e.kind === "loop_back" };
    if (b.y >= a.y + a.h) {
      const p: [number, number][] = [
        [a.x + a.w / 2, a.y + a.h],
        [b.x + b.w / 2, b.y],
      ];
      return {
        ...e,
        points: p,
        labelAt: [(p[0]![0] + p[1]![0]) / 2, (p[0]![1] + p[1]![1]) / 2],
        back: false,
      };
    }
    if (Math.abs(a.y - b.y) < 1 && b.x > a.x) {
      const p: [number, number][] = [
        [a.x + a.w, a.y + a.h / 2],
        [b.x, b.y + b.h / 2],
      ];
      return { ...e, points: p, labelAt: [(p[0]![0] + p[1]![0]) / 2, p[0]![1] - 4], back: false };
    }
    backCount++;
    const ox = Math.max(a.x + a.w, b.x + b.w) + MARGIN + backCount * BACK_STEP;
    rightmost = Math.max(rightmost, ox);
    const p: [number, number][] = [
      [a.x + a.w, a.y + a.h / 2],
      [ox, a.y + a.h / 2],
      [ox, b.y + b.h / 2],
      [b.x + b.w, b.y + b.h / 2],
    ];
    return { ...e, points: p, labelAt: [ox, (a.y + b.y + b.h) / 2], back: true };
  });

  return {
    width: Math.ceil(rightmost + MARGIN),
    height: Math.ceil(Math.max(y - GAP_Y + MARGIN, NODE_H + 2 * MARGIN)),
    boxes: [...boxes.values()],
    edges,
  };
};
