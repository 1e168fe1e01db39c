/**
 * A conversation turn's end is stored at once (openConversationTurn): the wait for the next
 * message, its audit entry, and the session that replaces the one the turn began from. When
 * any part cannot be stored, nothing is: the earlier session stays for the turn to run again
 * and no wait is left without its session.
 */
import { openConversationTurn, saveAgentSession } from "@switchyard/db";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { parkedRun, saveAgentWorkflow } from "./helpers/waiting-run";

let base: SeededDatabase;
beforeAll(async () => {
  base = await openSeededDatabase();
}, 120_000);
afterAll(async () => {
  await base?.close();
});

it("stores the next wait and replaces the session in one transaction, or stores nothing", async () => {
  const { db, teamId, adminId } = base;
  const saved = await saveAgentWorkflow(db, teamId, "chat-store");
  const run = await parkedRun(db, {
    teamId,
    workflowId: saved.workflowId,
    workflowVersionId: saved.id,
    startedById: adminId,
  });
  const at = { teamId, runId: run.runId, stepKey: "chat", stepRunId: run.stepRunId };
  const before = await saveAgentSession(db, {
    ...at,
    provider: "openai_compatible",
    sealed: Buffer.from("turn one"),
    waitId: run.waitId,
  });
  const wait = {
    teamId,
    runId: run.runId,
    stepRunId: run.stepRunId,
    question: "Conversation: chat",
    detail: { state: "chat", turn: 2, reply: "two" },
    lane: "default",
    expiresAt: new Date(Date.now() + 60_000),
  };
  const waits = () => db.wait.count({ where: { runId: run.runId, kind: "message" } });
  const sessions = () =>
    db.agentSession.findMany({ where: { runId: run.runId }, select: { id: true, waitId: true } });

  // The session cannot be stored (Postgres refuses a NUL in text): the wait goes too.
  await expect(
    openConversationTurn(db, {
      wait,
      session: {
        ...at,
        provider: "openai_compatible",
        sessionId: "bad\u0000id",
        sealed: Buffer.from("turn two"),
      },
    }),
  ).rejects.toThrow();
  expect(await waits()).toBe(0);
  expect(await sessions()).toEqual([{ id: before.id, waitId: run.waitId }]);
  expect(
    await db.auditLog.count({ where: { teamId, action: "wait.opened", targetType: "wait" } }),
  ).toBe(0);

  const waitId = await openConversationTurn(db, {
    wait,
    session: { ...at, provider: "openai_compatible", sealed: Buffer.from("turn two") },
  });
  const after = await sessions();
  expect(after.map((row) => [row.id === before.id, row.waitId])).toEqual([[false, waitId]]);
  expect(await db.wait.findUniqueOrThrow({ where: { id: waitId } })).toMatchObject({
    kind: "message",
    status: "open",
    starterOnly: true,
  });
});
