import { describe, expect, it } from "vitest";
import { parseOk } from "@switchyard/testing/workflow";
import { workflowGraph } from "./graph";
import { layoutGraph } from "./graph-layout";

const SOURCE = `
name: shapes
states:
  initial: fetch
  fetch:
    type: step
    command: echo hi
    on_success: fan
    on_failure: broken
  fan:
    type: parallel
    parallel: [left, right]
    on_success: each
  left: { type: step, command: echo l, on_success: nowhere_ignored }
  right: { type: agent, provider: claude, prompt: hi }
  each:
    type: for_each
    items: "a,b"
    body: [one, two]
    on_complete: decide
  one: { type: step, command: echo 1 }
  two: { type: step, command: echo 2 }
  decide:
    type: step
    command: echo d
    transitions:
      - when: 'states.decide.ExitCode == 0'
        goto: sub
      - goto: fetch
  sub:
    type: call_workflow
    workflow: child
    on_success: done
    on_failure: { message: "sub failed", status: 3 }
  broken: { type: terminal, status: failure }
  done: { type: terminal, status: success }
  nowhere_ignored: { type: terminal }
`;

describe("workflowGraph", () => {
  const graph = workflowGraph(parseOk(SOURCE));
  const node = (id: string) => graph.nodes.find((n) => n.id === id);
  const edgesFrom = (id: string) =>
    graph.edges
      .filter((e) => e.from === id)
      .map((e) => `${e.kind}:${e.to}${e.label ? `(${e.label})` : ""}`);

  it("has one node per state with its kind, terminal status, sub-workflow and provider", () => {
    expect(graph.initial).toBe("fetch");
    expect(graph.nodes.map((n) => n.id)).toEqual([
      "fetch",
      "fan",
      "left",
      "right",
      "each",
      "one",
      "two",
      "decide",
      "sub",
      "broken",
      "done",
      "nowhere_ignored",
    ]);
    expect(node("broken")).toMatchObject({ kind: "terminal", terminalStatus: "failure" });
    expect(node("sub")).toMatchObject({
      kind: "call_workflow",
      workflow: "child",
      failMessage: "sub failed",
    });
    expect(node("right")).toMatchObject({ kind: "agent", provider: "claude", group: "fan" });
  });

  it("groups parallel branches and loop bodies under their state", () => {
    expect(node("fan")).toMatchObject({ kind: "parallel", children: ["left", "right"] });
    expect(node("left")?.group).toBe("fan");
    expect(node("each")).toMatchObject({ kind: "for_each", children: ["one", "two"] });
    expect(node("two")?.group).toBe("each");
    expect(node("decide")?.group).toBeUndefined();
  });

  it("draws transitions, branches, the loop body with its back edge, and ignores a branch's own transitions", () => {
    expect(edgesFrom("fetch")).toEqual(["success:fan", "failure:broken"]);
    expect(edgesFrom("fan")).toEqual(["branch:left", "branch:right", "success:each"]);
    expect(edgesFrom("left")).toEqual([]);
    expect(edgesFrom("each")).toEqual(["body:one", "complete:decide"]);
    expect(edgesFrom("one")).toEqual(["next:two"]);
    expect(edgesFrom("two")).toEqual(["loop_back:each"]);
    expect(edgesFrom("decide")).toEqual([
      "transition:sub(states.decide.ExitCode == 0)",
      "transition:fetch(otherwise)",
    ]);
    expect(edgesFrom("sub")).toEqual(["success:done"]);
  });
});

describe("layoutGraph", () => {
  const graph = workflowGraph(parseOk(SOURCE));
  const layout = layoutGraph(graph);
  const box = (id: string) => layout.boxes.find((b) => b.id === id)!;

  it("places every state once, each below the states that lead to it", () => {
    expect(layout.boxes.map((b) => b.id).sort()).toEqual(graph.nodes.map((n) => n.id).sort());
    expect(box("fan").y).toBeGreaterThan(box("fetch").y);
    expect(box("each").y).toBeGreaterThan(box("fan").y);
    expect(box("decide").y).toBeGreaterThan(box("each").y);
    expect(box("done").y).toBeGreaterThan(box("sub").y);
  });

  it("puts grouped states inside their group's box, side by side", () => {
    const fan = box("fan");
    for (const id of ["left", "right"]) {
      const b = box(id);
      expect(fan.isGroup).toBe(true);
      expect(b.x).toBeGreaterThanOrEqual(fan.x);
      expect(b.x + b.w).toBeLessThanOrEqual(fan.x + fan.w);
      expect(b.y + b.h).toBeLessThanOrEqual(fan.y + fan.h);
    }
    expect(box("left").x + box("left").w).toBeLessThan(box("right").x);
  });

  it("routes the edge back up to an earlier state around the right, inside the picture", () => {
    const up = layout.edges.find((e) => e.from === "decide" && e.to === "fetch")!;
    expect(up.back).toBe(true);
    for (const [x, y] of up.points) {
      expect(x).toBeLessThanOrEqual(layout.width);
      expect(y).toBeLessThanOrEqual(layout.height);
    }
    expect(layout.edges.find((e) => e.kind === "branch")!.points).toEqual([]);
  });

  it("is deterministic", () => {
    expect(layoutGraph(workflowGraph(parseOk(SOURCE)))).toEqual(layout);
  });
});
