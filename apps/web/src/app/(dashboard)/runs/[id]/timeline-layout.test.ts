import { describe, expect, it } from "vitest";
import { laneOf, treeOrder } from "./timeline-layout";

describe("laneOf", () => {
  it("puts overlapping attempts side by side and reuses a lane once it is free", () => {
    // a [0,10), b [2,8) in parallel with a, c [10,12) after a, d [9,20) overlaps c
    expect(
      laneOf([
        { start: 0, end: 10 },
        { start: 2, end: 8 },
        { start: 9, end: 20 },
        { start: 10, end: 12 },
      ]),
    ).toEqual([0, 1, 1, 0]);
  });
  it("keeps retries of one state in one lane when they follow each other", () => {
    expect(
      laneOf([
        { start: 0, end: 5 },
        { start: 5, end: 9 },
        { start: 9, end: 11 },
      ]),
    ).toEqual([0, 0, 0]);
  });
});

describe("treeOrder", () => {
  const at = (s: number) => new Date(1_000_000 + s);
  it("nests spans under their parents, siblings by start, orphans at the top", () => {
    const rows = treeOrder([
      {
        spanId: "c2",
        parentSpanId: "root",
        name: "c2",
        status: "ok",
        startTime: at(5),
        endTime: at(6),
      },
      {
        spanId: "root",
        parentSpanId: null,
        name: "root",
        status: "ok",
        startTime: at(0),
        endTime: at(10),
      },
      {
        spanId: "c1",
        parentSpanId: "root",
        name: "c1",
        status: "ok",
        startTime: at(1),
        endTime: at(4),
      },
      {
        spanId: "g",
        parentSpanId: "c1",
        name: "g",
        status: "ok",
        startTime: at(2),
        endTime: at(3),
      },
      {
        spanId: "lost",
        parentSpanId: "elsewhere",
        name: "lost",
        status: "ok",
        startTime: at(7),
        endTime: null,
      },
    ]);
    expect(rows.map((r) => [r.span.spanId, r.depth])).toEqual([
      ["root", 0],
      ["c1", 1],
      ["g", 2],
      ["c2", 1],
      ["lost", 0],
    ]);
  });
});
