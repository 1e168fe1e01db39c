/**
 * A run's event stream over the REST API ends once its token no longer may read it: the
 * token revoked, or its member removed from the team. The run stays queued (no worker
 * takes it), so only the access check can end the stream; it ends with a last `end` event
 * saying why, within a few seconds, and the next request with the token is refused.
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { createApiToken, removeMember, revokeApiToken, type Db } from "@switchyard/db";
import { handleRest } from "~/server/rest/rest-api";
import { ACCESS_RECHECK_MS } from "~/server/runs/run-event-stream";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { readMessages } from "./helpers/sse-messages";
import { addMember } from "./helpers/team-member";
import { randomPrefix } from "./helpers/worker-process";

let seeded: SeededDatabase;
let db: Db;
let redis: Redis;
let queue: Queue<RunJob>;
let prefix: string;
let runId: string;

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
  prefix = randomPrefix();
  redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  queue = new Queue<RunJob>(RUN_QUEUE, { connection: redis, prefix });
  const admin = dashboardCaller({ db, queue }, seeded.adminId);
  const hello = (await admin.workflows.list()).find((w) => w.name === "hello-world")!;
  runId = (await admin.runs.start({ workflowId: hello.id })).id;
});
afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  redis?.disconnect();
  await seeded?.close();
});

const open = (token: string, signal?: AbortSignal) => {
  const path = `/runs/${runId}/events`;
  return handleRest(
    { db, queue: () => queue, prefix, publish: (c, m) => redis.publish(c, m) },
    new Request(`http://localhost/api/v1${path}`, {
      headers: { authorization: `Bearer ${token}` },
      signal,
    }),
    path,
  );
};

/** Opens the stream, takes access away after a moment, and reads the stream to its end. */
const endsAfter = async (token: string, takeAway: () => Promise<unknown>) => {
  const res = await open(token);
  expect(res.status).toBe(200);
  const reading = readMessages(res, () => false, 60_000);
  await new Promise((r) => setTimeout(r, 500));
  const from = Date.now();
  await takeAway();
  const { messages, ended } = await reading;
  return { messages, ended, afterMs: Date.now() - from };
};

describe("a run's event stream and its token", () => {
  it("ends, saying why, once the token is revoked", async () => {
    const member = await addMember(db, seeded.teamId, {
      email: "revoked@test.local",
      name: "Revoked",
      role: "member",
    });
    const made = await createApiToken(db, {
      teamId: seeded.teamId,
      userId: member,
      name: "stream",
    });
    const { messages, ended, afterMs } = await endsAfter(made.token, () =>
      revokeApiToken(db, seeded.teamId, made.id),
    );
    expect(ended).toBe(true);
    // Re-checked every few seconds: a generous bound over one re-check and one poll.
    expect(afterMs).toBeLessThan(ACCESS_RECHECK_MS + 10_000);
    const last = messages[messages.length - 1]!;
    expect(last.event).toBe("end");
    expect(JSON.parse(last.data)).toMatchObject({
      reason: "access_ended",
      error: { code: "UNAUTHORIZED" },
    });
    expect((await open(made.token)).status).toBe(401);
  }, 60_000);

  it("ends once the token's member is removed from the team", async () => {
    const member = await addMember(db, seeded.teamId, {
      email: "removed@test.local",
      name: "Removed",
      role: "viewer",
    });
    const made = await createApiToken(db, {
      teamId: seeded.teamId,
      userId: member,
      name: "stream",
    });
    const { messages, ended, afterMs } = await endsAfter(made.token, () =>
      removeMember(db, seeded.teamId, member),
    );
    expect(ended).toBe(true);
    expect(afterMs).toBeLessThan(ACCESS_RECHECK_MS + 10_000);
    expect(messages.at(-1)).toMatchObject({ event: "end" });
    expect(JSON.parse(messages.at(-1)!.data)).toMatchObject({ reason: "access_ended" });
  }, 60_000);

  it("keeps flowing while the token may still read the run", async () => {
    const made = await createApiToken(db, {
      teamId: seeded.teamId,
      userId: seeded.adminId,
      name: "stream",
    });
    const client = new AbortController();
    const res = await open(made.token, client.signal);
    let ended = false;
    const reading = readMessages(res, () => false, 60_000).then((r) => (ended = r.ended));
    await new Promise((r) => setTimeout(r, ACCESS_RECHECK_MS * 2 + 1_000));
    expect(ended).toBe(false);
    client.abort();
    await reading;
  }, 60_000);
});
