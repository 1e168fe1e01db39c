import { describe, expect, it } from "vitest";
import { surfaceOf } from "../errors/error-codes";
import { parseWorkflow } from "../workflow/parse/parse-workflow";
import {
  laneTable,
  mayCall,
  mayCancel,
  mayReachConnector,
  maySave,
  mayStart,
  mayUseSecret,
} from "./lane-policy";
import { checkRunReach, collectRunReach, type ReachedWorkflow } from "./run-reach";

const lanes = laneTable([
  {
    name: "default",
    saveRoles: ["owner", "admin", "member"],
    startRoles: ["owner", "admin", "member"],
  },
  { name: "operator", saveRoles: ["owner", "admin"], startRoles: ["owner", "admin"] },
  { name: "review", saveRoles: ["owner", "admin", "member"], startRoles: ["owner", "admin"] },
]);

const wf = (
  name: string,
  lane: string,
  body: { calls?: string[]; env?: string[]; connectors?: string[] } = {},
): ReachedWorkflow => {
  const states = (body.calls ?? []).map(
    (callee, i) =>
      `  c${i}:\n    type: call_workflow\n    workflow: ${callee}\n    on_success: ${i + 1 < (body.calls?.length ?? 0) ? `c${i + 1}` : "done"}\n`,
  );
  if (body.connectors)
    states.unshift(
      `  a:\n    type: agent\n    provider: claude\n    prompt: hi\n    mcp_proxy:\n      connectors: [${body.connectors.join(", ")}]\n    on_success: ${states.length > 0 ? "c0" : "done"}\n`,
    );
  const initial = body.connectors ? "a" : states.length > 0 ? "c0" : "done";
  const yaml = `name: ${name}\n${body.env ? `env:\n${body.env.map((e) => `  - ${e}\n`).join("")}` : ""}states:\n  initial: ${initial}\n${states.join("")}  done:\n    type: terminal\n    status: success\n`;
  const parsed = parseWorkflow(yaml, `${name}.yaml`);
  if (!parsed.workflow) throw new Error(parsed.errors.map((e) => e.message).join("; "));
  return { workflow: parsed.workflow, lane };
};

const reachOf = async (root: ReachedWorkflow, others: ReachedWorkflow[]) => {
  const byName = new Map(others.map((o) => [o.workflow.name, o]));
  const loaded: string[] = [];
  const reach = await collectRunReach(root, async (name) => {
    loaded.push(name);
    return byName.get(name);
  });
  return { reach, loaded };
};

describe("lane rules", () => {
  it("saves and starts by the lane's roles; cancelling needs the start right", () => {
    expect(maySave(lanes, "member", "default")).toBeUndefined();
    expect(maySave(lanes, "member", "operator")?.code).toBe("FORBIDDEN");
    expect(mayStart(lanes, "admin", "operator")).toBeUndefined();
    expect(mayStart(lanes, "member", "review")?.message).toContain(
      'may not start runs in lane "review"',
    );
    expect(mayCancel(lanes, "member", "operator")?.message).toContain("may not cancel");
    expect(mayCancel(lanes, "viewer", "default")?.code).toBe("FORBIDDEN");
  });

  it("denies everything in a lane the team does not have, even to the owner", () => {
    expect(maySave(lanes, "owner", "gone")?.message).toContain('lane "gone" does not exist');
    expect(mayStart(lanes, "owner", "gone")?.code).toBe("FORBIDDEN");
    expect(mayCancel(lanes, "owner", "gone")?.code).toBe("FORBIDDEN");
    expect(mayCall(lanes, "gone", "default")?.code).toBe("USER.LANE.CALL_DENIED");
    expect(mayCall(lanes, "default", "gone")?.message).toContain('lane "gone" does not exist');
  });

  it("lets a workflow call another only when no one outside its save roles can edit the callee", () => {
    expect(mayCall(lanes, "default", "operator")).toBeUndefined();
    expect(mayCall(lanes, "operator", "operator")).toBeUndefined();
    const down = mayCall(lanes, "operator", "default");
    expect(down?.code).toBe("USER.LANE.CALL_DENIED");
    expect(down?.message).toContain("member may edit it there");
    expect(mayCall(lanes, "operator", "review")?.code).toBe("USER.LANE.CALL_DENIED");
    expect(mayCall(lanes, "review", "default")).toBeUndefined();
  });

  it("opens a secret only to its lanes", () => {
    expect(mayUseSecret({ name: "K", lanes: ["operator", "default"] }, "default")).toBeUndefined();
    const denied = mayUseSecret({ name: "K", lanes: ["operator"] }, "default");
    expect(denied?.code).toBe("USER.LANE.SECRET_DENIED");
    expect(denied?.message).toBe(
      'secret "K" is not open to lane "default" (it is open to "operator")',
    );
    expect(mayUseSecret({ name: "K", lanes: [] }, "operator")?.message).toContain("no lane");
  });

  it("lets a run reach a connector only when it exists, is enabled and is open to the run's lane", () => {
    const linear = { slug: "linear", lanes: ["operator"], enabled: true };
    expect(mayReachConnector(linear, "linear", "operator")).toBeUndefined();
    const denied = mayReachConnector(linear, "linear", "default");
    expect(denied?.code).toBe("USER.MCP_PROXY.LANE_DENIED");
    expect(denied?.message).toBe(
      'connector "linear" is not open to lane "default" (it is open to "operator")',
    );
    expect(mayReachConnector({ ...linear, lanes: ["*"] }, "linear", "review")).toBeUndefined();
    expect(mayReachConnector({ ...linear, enabled: false }, "linear", "operator")?.message).toBe(
      'connector "linear" is disabled',
    );
    expect(mayReachConnector(undefined, "ghost", "operator")?.code).toBe(
      "USER.MCP_PROXY.UNKNOWN_CONNECTOR",
    );
  });

  it("reports lane refusals as 403 / FORBIDDEN, exit 1", () => {
    for (const code of ["USER.LANE.CALL_DENIED", "USER.LANE.SECRET_DENIED"]) {
      expect(surfaceOf(code)).toEqual({ http: 403, trpc: "FORBIDDEN", exit: 1 });
    }
  });
});

describe("what a run reaches", () => {
  it("collects callees transitively, each once, through cycles and unknown names", async () => {
    const { reach, loaded } = await reachOf(wf("a", "default", { calls: ["b", "c", "ghost"] }), [
      wf("b", "default", { calls: ["c", "a"] }),
      wf("c", "operator", { calls: ["b"] }),
    ]);
    expect([...reach.callees.keys()].sort()).toEqual(["b", "c"]);
    expect(loaded.sort()).toEqual(["b", "c", "ghost"]);
  });

  it("refuses a member whose run would reach an operator workflow, pointing at the call", async () => {
    const { reach } = await reachOf(wf("parent", "default", { calls: ["mid"] }), [
      wf("mid", "default", { calls: ["ops"] }),
      wf("ops", "operator"),
    ]);
    const denied = checkRunReach({
      lanes,
      reach,
      role: "member",
      secrets: new Map(),
      connectors: new Map(),
    });
    expect(denied?.code).toBe("USER.LANE.CALL_DENIED");
    expect(denied?.message).toBe(
      '"mid" calls "ops" in lane "operator", where your role (member) may not start runs',
    );
    expect(denied?.location).toMatchObject({
      file: "mid.yaml",
      path: "states.c0.workflow",
      line: expect.any(Number) as number,
    });
    expect(
      checkRunReach({ lanes, reach, role: "admin", secrets: new Map(), connectors: new Map() }),
    ).toBeUndefined();
    // without a starter (a run written directly) only the calls themselves are checked
    expect(
      checkRunReach({ lanes, reach, role: undefined, secrets: new Map(), connectors: new Map() }),
    ).toBeUndefined();
  });

  it("refuses an operator workflow that calls member-editable code, whoever starts it", async () => {
    const { reach } = await reachOf(wf("ops", "operator", { calls: ["helper"] }), [
      wf("helper", "default"),
    ]);
    const denied = checkRunReach({
      lanes,
      reach,
      role: "owner",
      secrets: new Map(),
      connectors: new Map(),
    });
    expect(denied?.code).toBe("USER.LANE.CALL_DENIED");
    expect(denied?.location?.file).toBe("ops.yaml");
    expect(
      checkRunReach({ lanes, reach, role: undefined, secrets: new Map(), connectors: new Map() })
        ?.code,
    ).toBe("USER.LANE.CALL_DENIED");
  });

  it("does not ask the starter for the run's own lane again", async () => {
    const { reach } = await reachOf(wf("r", "review", { calls: ["r2"] }), [wf("r2", "review")]);
    expect(
      checkRunReach({ lanes, reach, role: "member", secrets: new Map(), connectors: new Map() }),
    ).toBeUndefined();
  });

  it("checks every secret the run names, in the callees too, against the run's lane", async () => {
    const secrets = new Map([
      ["OPS_KEY", { name: "OPS_KEY", lanes: ["operator"] }],
      ["SHARED", { name: "SHARED", lanes: ["operator", "default"] }],
    ]);
    const plain = await reachOf(wf("p", "default", { env: ["SHARED", "PLAIN"] }), []);
    expect(
      checkRunReach({ lanes, reach: plain.reach, role: "member", secrets, connectors: new Map() }),
    ).toBeUndefined();

    const nested = await reachOf(wf("p", "default", { calls: ["child"] }), [
      wf("child", "default", { env: ["OPS_KEY"] }),
    ]);
    const denied = checkRunReach({
      lanes,
      reach: nested.reach,
      role: "owner",
      secrets,
      connectors: new Map(),
    });
    expect(denied?.code).toBe("USER.LANE.SECRET_DENIED");
    expect(denied?.location).toEqual({ file: "child.yaml", path: "env" });

    const ops = await reachOf(wf("o", "operator", { env: ["OPS_KEY"] }), []);
    expect(
      checkRunReach({ lanes, reach: ops.reach, role: "admin", secrets, connectors: new Map() }),
    ).toBeUndefined();
  });

  it("checks every connector an agent step names, in the callees too, against the run's lane", async () => {
    const connectors = new Map([
      ["ops_db", { slug: "ops_db", lanes: ["operator"], enabled: true }],
      ["linear", { slug: "linear", lanes: ["*"], enabled: true }],
    ]);
    const open = await reachOf(wf("p", "default", { connectors: ["linear"] }), []);
    expect(
      checkRunReach({ lanes, reach: open.reach, role: "member", secrets: new Map(), connectors }),
    ).toBeUndefined();

    const nested = await reachOf(wf("p", "default", { calls: ["child"] }), [
      wf("child", "default", { connectors: ["linear", "ops_db"] }),
    ]);
    const denied = checkRunReach({
      lanes,
      reach: nested.reach,
      role: "owner",
      secrets: new Map(),
      connectors,
    });
    expect(denied?.code).toBe("USER.MCP_PROXY.LANE_DENIED");
    expect(denied?.location).toMatchObject({
      file: "child.yaml",
      path: "states.a.mcp_proxy.connectors",
      line: expect.any(Number) as number,
    });

    const ghost = await reachOf(wf("p", "operator", { connectors: ["ghost"] }), []);
    expect(
      checkRunReach({ lanes, reach: ghost.reach, role: "admin", secrets: new Map(), connectors })
        ?.code,
    ).toBe("USER.MCP_PROXY.UNKNOWN_CONNECTOR");
  });
});
