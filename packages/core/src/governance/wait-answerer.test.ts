import { describe, expect, it } from "vitest";
import { laneTable } from "../policy/lane-policy";
import { describeAnswerers, waitAnswerRefusal } from "./wait-answerer";

const lanes = laneTable([
  {
    name: "default",
    saveRoles: ["owner", "admin", "member"],
    startRoles: ["owner", "admin", "member"],
  },
  { name: "deploy", saveRoles: ["owner", "admin"], startRoles: ["owner", "admin"] },
]);
const wait = {
  minRole: "member" as const,
  lane: "default",
  notStarter: false,
  starterOnly: false,
  startedById: "u1",
};

describe("who may answer a wait", () => {
  it("lets a member who may start runs in the lane answer", () => {
    expect(waitAnswerRefusal(lanes, { userId: "u2", role: "member" }, wait)).toBeUndefined();
  });

  it("refuses under the minimum role, outside the lane's start roles, and the starter of a four-eyes wait, naming the rule", () => {
    const refusals = [
      waitAnswerRefusal(lanes, { userId: "u2", role: "viewer" }, wait),
      waitAnswerRefusal(lanes, { userId: "u2", role: "member" }, { ...wait, lane: "deploy" }),
      waitAnswerRefusal(lanes, { userId: "u2", role: "member" }, { ...wait, minRole: "admin" }),
      waitAnswerRefusal(lanes, { userId: "u1", role: "owner" }, { ...wait, notStarter: true }),
      waitAnswerRefusal(lanes, { userId: "u2", role: "owner" }, { ...wait, lane: "gone" }),
    ];
    expect(refusals.map((r) => r?.code)).toEqual(Array(5).fill("USER.WAIT.NOT_ALLOWED"));
    expect(refusals.map((r) => r?.message)).toEqual([
      expect.stringMatching(/role member or above; yours is viewer/),
      expect.stringMatching(/start runs in lane "deploy"/),
      expect.stringMatching(/role admin or above/),
      expect.stringMatching(/other than the person who started the run/),
      expect.stringMatching(/lane "gone" does not exist/),
    ]);
    // A run without a starter (a trigger's) has no starter to keep out.
    expect(
      waitAnswerRefusal(
        lanes,
        { userId: "u1", role: "owner" },
        { ...wait, notStarter: true, startedById: null },
      ),
    ).toBeUndefined();
  });

  it("lets only the member an input wait's run runs as, or an admin, fill in its inputs", () => {
    const input = { ...wait, kind: "input", minRole: "admin" as const };
    expect(waitAnswerRefusal(lanes, { userId: "u1", role: "member" }, input)).toBeUndefined();
    expect(waitAnswerRefusal(lanes, { userId: "u3", role: "admin" }, input)).toBeUndefined();
    const other = waitAnswerRefusal(lanes, { userId: "u2", role: "member" }, input);
    expect(other?.code).toBe("USER.WAIT.NOT_ALLOWED");
    expect(other?.message).toMatch(/the member this run runs as, or the role admin or above/);
    // The run's member still needs to be allowed to start runs in its lane.
    expect(
      waitAnswerRefusal(lanes, { userId: "u1", role: "member" }, { ...input, lane: "deploy" })
        ?.code,
    ).toBe("USER.WAIT.NOT_ALLOWED");
    expect(describeAnswerers({ ...input, lane: "default" })).toBe(
      'the member the run runs as, or an admin or above, who may start runs in lane "default"',
    );
  });

  it("lets only the starter answer a starter-only wait, or anyone the rest allows once the starter is gone", () => {
    const mine = { ...wait, starterOnly: true };
    expect(waitAnswerRefusal(lanes, { userId: "u1", role: "member" }, mine)).toBeUndefined();
    const other = waitAnswerRefusal(lanes, { userId: "u2", role: "owner" }, mine);
    expect(other?.code).toBe("USER.WAIT.NOT_ALLOWED");
    expect(other?.message).toMatch(/only the person who started the run/);
    const gone = { ...mine, startedById: null };
    expect(waitAnswerRefusal(lanes, { userId: "u2", role: "member" }, gone)).toBeUndefined();
    expect(waitAnswerRefusal(lanes, { userId: "u2", role: "viewer" }, gone)?.code).toBe(
      "USER.WAIT.NOT_ALLOWED",
    );
  });

  it("says who may, in words", () => {
    expect(
      describeAnswerers({ minRole: "admin", lane: "deploy", notStarter: true, starterOnly: false }),
    ).toBe('an admin or above who may start runs in lane "deploy", not the run\'s starter');
    expect(
      describeAnswerers({
        minRole: "member",
        lane: "default",
        notStarter: false,
        starterOnly: true,
      }),
    ).toBe(
      'the run\'s starter (once their account is gone: a member or above who may start runs in lane "default")',
    );
  });
});
