/**
 * Where the run page draws things: step attempts in lanes (overlapping ones side by side)
 * and spans in tree order with their depth.
 */
/** Greedy interval partitioning: each attempt goes to the first lane that is free at its start. */
export const laneOf = (steps: { start: number; end: number }[]) => {
  const ends: number[] = [];
  return steps.map((s) => {
    const lane = ends.findIndex((end) => end <= s.start);
    if (lane >= 0) {
      ends[lane] = s.end;
      return lane;
    }
    ends.push(s.end);
    return ends.length - 1;
  });
};

type SpanRow = {
  spanId: string;
  parentSpanId: string | null;
  name: string;
  status: string;
  startTime: Date;
  endTime: Date | null;
};

/** Spans in tree order (parents before children, siblings by start), each with its depth. */
export const treeOrder = <S extends SpanRow>(spans: S[]) => {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string | null, S[]>();
  for (const s of spans) {
    const parent = s.parentSpanId && ids.has(s.parentSpanId) ? s.parentSpanId : null;
    const siblings = children.get(parent);
    if (siblings) siblings.push(s);
    else children.set(parent, [s]);
  }
  const out: { span: S; depth: number }[] = [];
  const visit = (parent: string | null, depth: number) => {
    for (const s of (children.get(parent) ?? []).sort(
      (a, b) => a.startTime.getTime() - b.startTime.getTime(),
    )) {
      out.push({ span: s, depth });
      visit(s.spanId, depth + 1);
    }
  };
  visit(null, 0);
  return out;
};
