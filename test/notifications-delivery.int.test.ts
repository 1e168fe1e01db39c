/**
 * Notifications when runs end, delivered by a real worker to a real local HTTP receiver:
 * the POST carries the run's end and a signature that verifies with the endpoint's secret;
 * a receiver that fails twice is retried until it takes it; an endpoint not listening to
 * the event, or disabled, gets nothing; only admins manage endpoints.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import {
  SIGNATURE_HEADER,
  verifySignature,
  type NotificationPayload,
} from "@switchyard/core/triggers";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { addMember } from "./helpers/team-member";
import { waitFor } from "./helpers/worker-process";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { webEgress } from "~/server/egress";

type Received = { path: string; signature: string; body: string };

let stack: RunStack;
let connection: Redis;
let server: Server;
let base: string;
const received: Received[] = [];
/** How many more times each path answers 500 before 200. */
const failuresLeft = new Map<string, number>();
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
/** The receiver listens on loopback, which the operator's allow-list names for web and worker alike. */
const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const caller = (userId = stack.adminId) =>
  dashboardCaller(
    { db: stack.db, queue: stack.queue, redis: connection, prefix: stack.prefix, keyring, egress },
    userId,
  );

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString()));
    req.on("end", () => resolve(text));
  });

beforeAll(async () => {
  stack = await openRunStack({ SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW });
  connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const path = req.url ?? "/";
      const left = failuresLeft.get(path) ?? 0;
      received.push({
        path,
        signature: String(req.headers[SIGNATURE_HEADER.toLowerCase()] ?? ""),
        body,
      });
      if (left > 0) {
        failuresLeft.set(path, left - 1);
        res.writeHead(500).end("not now");
      } else {
        res.writeHead(200).end("ok");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 90_000);
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await closeRunStack(stack);
  connection?.disconnect();
}, 90_000);

describe("run notifications", () => {
  it("delivers a signed run.succeeded, retries a failing receiver until it answers, skips endpoints not listening", async () => {
    const ok = await caller().notifications.create({
      url: `${base}/ok`,
      events: ["run.succeeded", "run.failed"],
    });
    const flaky = await caller().notifications.create({
      url: `${base}/flaky`,
      events: ["run.succeeded"],
    });
    const failedOnly = await caller().notifications.create({
      url: `${base}/failed-only`,
      events: ["run.failed"],
    });
    const off = await caller().notifications.create({
      url: `${base}/off`,
      events: ["run.succeeded"],
      enabled: false,
    });
    expect(ok.secret).toMatch(/^whsec_/);
    expect(JSON.stringify(await caller().notifications.endpoints())).not.toContain(ok.secret);
    failuresLeft.set("/flaky", 2);

    const hello = (await caller().workflows.list()).find((w) => w.name === "hello-world")!;
    const started = await caller().runs.start({ workflowId: hello.id });
    const run = await runEnded(() => caller().runs.get({ id: started.id }), "the run to end");
    expect(run.status).toBe("succeeded");

    const delivered = await waitFor(
      async () => {
        const { deliveries } = await caller().notifications.deliveries();
        const mine = deliveries.filter((d) => d.runId === started.id);
        return mine.length === 2 && mine.every((d) => d.status === "delivered") ? mine : undefined;
      },
      30_000,
      "both deliveries",
    );
    const byEndpoint = new Map(delivered.map((d) => [d.endpointId, d]));
    expect(byEndpoint.get(ok.endpoint.id)).toMatchObject({
      attempts: 1,
      lastStatusCode: 200,
      event: "run.succeeded",
    });
    expect(byEndpoint.get(flaky.endpoint.id)).toMatchObject({ attempts: 3, lastStatusCode: 200 });
    expect(byEndpoint.has(failedOnly.endpoint.id)).toBe(false);
    expect(byEndpoint.has(off.endpoint.id)).toBe(false);

    const okPost = received.find((r) => r.path === "/ok")!;
    expect(() =>
      verifySignature({ secret: ok.secret, header: okPost.signature, body: okPost.body }),
    ).not.toThrow();
    expect(() =>
      verifySignature({ secret: flaky.secret, header: okPost.signature, body: okPost.body }),
    ).toThrow();
    const payload = JSON.parse(okPost.body) as NotificationPayload;
    expect(payload).toMatchObject({
      event: "run.succeeded",
      run: { id: started.id, workflow: "hello-world", status: "succeeded", errorCode: null },
    });
    expect(payload.run.url).toMatch(new RegExp(`/runs/${started.id}$`));
    expect(new Date(payload.run.finishedAt!).getTime()).toBeGreaterThan(0);
    expect(received.filter((r) => r.path === "/flaky")).toHaveLength(3);
    expect(received.some((r) => r.path === "/failed-only" || r.path === "/off")).toBe(false);
  }, 90_000);

  it("tells run.cancelled for a run cancelled before any worker took it", async () => {
    const cancelled = await caller().notifications.create({
      url: `${base}/cancelled`,
      events: ["run.cancelled"],
    });
    // A run queue no worker listens to, so the run is still queued when it is cancelled.
    const idle = new Queue<RunJob>(RUN_QUEUE, { connection, prefix: `${stack.prefix}-idle` });
    try {
      const idleCaller = dashboardCaller(
        { db: stack.db, queue: idle, redis: connection, prefix: stack.prefix, keyring, egress },
        stack.adminId,
      );
      const hello = (await idleCaller.workflows.list()).find((w) => w.name === "hello-world")!;
      const started = await idleCaller.runs.start({ workflowId: hello.id });
      expect((await idleCaller.runs.cancel({ id: started.id })).status).toBe("cancelled");
      const post = await waitFor(
        async () => received.find((r) => r.path === "/cancelled"),
        20_000,
        "the run.cancelled notification",
      );
      expect(JSON.parse(post.body)).toMatchObject({
        event: "run.cancelled",
        run: { id: started.id, status: "cancelled" },
      });
      expect(() =>
        verifySignature({ secret: cancelled.secret, header: post.signature, body: post.body }),
      ).not.toThrow();
    } finally {
      await idle.obliterate({ force: true }).catch(() => undefined);
      await idle.close();
    }
  }, 60_000);

  it("sends a test on request, and lets only admins manage endpoints", async () => {
    const endpoint = await caller().notifications.create({
      url: `${base}/test`,
      events: ["run.failed"],
    });
    await caller().notifications.sendTest({ id: endpoint.endpoint.id });
    const post = await waitFor(
      async () => received.find((r) => r.path === "/test"),
      20_000,
      "the test notification",
    );
    expect(JSON.parse(post.body)).toMatchObject({ test: true, event: "run.succeeded" });
    expect(() =>
      verifySignature({ secret: endpoint.secret, header: post.signature, body: post.body }),
    ).not.toThrow();

    await expect(
      caller().notifications.create({ url: "http://example.com/hook", events: ["run.failed"] }),
    ).rejects.toMatchObject({
      cause: { code: "USER.EGRESS.DENIED", location: { path: "url" } },
    });
    await expect(
      caller().notifications.create({
        url: "https://user:pw@example.com/hook",
        events: ["run.failed"],
      }),
    ).rejects.toMatchObject({
      cause: { code: "USER.INPUT.VALIDATION_FAILED", location: { path: "url" } },
    });
    const memberId = await addMember(stack.db, stack.teamId, {
      email: "m@test.local",
      name: "M",
      role: "member",
    });
    await expect(caller(memberId).notifications.endpoints()).rejects.toMatchObject({
      cause: { code: "FORBIDDEN" },
    });
    await expect(
      caller(memberId).notifications.delete({ id: endpoint.endpoint.id }),
    ).rejects.toMatchObject({ cause: { code: "FORBIDDEN" } });
    await caller().notifications.update({ id: endpoint.endpoint.id, enabled: false });
    expect(
      (await caller().notifications.endpoints()).endpoints.find(
        (e) => e.id === endpoint.endpoint.id,
      )?.enabled,
    ).toBe(false);
    await caller().notifications.delete({ id: endpoint.endpoint.id });
  }, 60_000);
});
