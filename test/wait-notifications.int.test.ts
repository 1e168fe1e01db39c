/**
 * Telling that a wait opened, through the worker's notification workers against a real
 * local HTTP receiver and a real SMTP server on loopback: an endpoint subscribed to
 * wait.opened gets one signed POST per wait (however often it is announced) with the wait,
 * its question and the link to the run's page; endpoints not subscribed get nothing; the
 * members who may answer get a mail with the link, those who may not get none.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseEgressAllowList } from "@switchyard/core/egress";
import {
  verifySignature,
  SIGNATURE_HEADER,
  type NotificationPayload,
} from "@switchyard/core/triggers";
import type { Db } from "@switchyard/db";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { closeEgress, workerEgress } from "../apps/worker/src/egress";
import { createLogger } from "../apps/worker/src/logger";
import { startTriggerWorkers } from "../apps/worker/src/triggers/trigger-workers";
import { webEgress } from "~/server/egress";
import { openSmtpInbox, type SmtpInbox } from "./helpers/smtp-inbox";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";
import { parkedRun, saveAgentWorkflow } from "./helpers/waiting-run";
import { randomPrefix, waitFor } from "./helpers/worker-process";

type Received = { path: string; signature: string; body: string };

let seeded: SeededDatabase;
let db: Db;
let redis: Redis;
let server: Server;
let smtp: SmtpInbox | undefined;
let base: string;
let workers: Awaited<ReturnType<typeof startTriggerWorkers>>;
let egress: ReturnType<typeof workerEgress>;
const prefix = randomPrefix();
const received: Received[] = [];
const mails: { to: string; body: string }[] = [];
const keyring = environmentKeyring();

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString()));
    req.on("end", () => resolve(text));
  });

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
  redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      received.push({
        path: req.url ?? "/",
        signature: String(req.headers[SIGNATURE_HEADER.toLowerCase()] ?? ""),
        body,
      });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  smtp = await openSmtpInbox(mails);
  egress = workerEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
  workers = await startTriggerWorkers({
    connection: redis,
    prefix,
    db,
    keyring,
    log: createLogger("error"),
    baseUrl: "https://switchyard.example.com/",
    fetch: egress.notification,
    mail: {
      smtpUrl: smtp.url,
      from: "Switchyard <switchyard@test.local>",
    },
  });
});
afterAll(async () => {
  await workers?.close();
  if (egress) await closeEgress(egress);
  await new Promise((r) => server?.close(r));
  await smtp?.close();
  redis?.disconnect();
  await seeded?.close();
});

it("posts a signed wait.opened once per wait to subscribed endpoints and mails those who may answer", async () => {
  const caller = dashboardCaller(
    { db, keyring, redis, prefix, egress: webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW)) },
    seeded.adminId,
  );
  const waits = await caller.notifications.create({
    url: `${base}/waits`,
    events: ["wait.opened"],
  });
  await caller.notifications.create({ url: `${base}/runs-only`, events: ["run.failed"] });
  const member = await addMember(db, seeded.teamId, {
    email: "member@test.local",
    name: "Member",
    role: "member",
  });
  await addMember(db, seeded.teamId, { email: "viewer@test.local", name: "V", role: "viewer" });
  const saved = await saveAgentWorkflow(db, seeded.teamId, "merge-bot");
  const { runId, waitId } = await parkedRun(db, {
    teamId: seeded.teamId,
    workflowId: saved.workflowId,
    workflowVersionId: saved.id,
    startedById: member,
    wait: { notStarter: true },
  });

  await workers.waitOpened({ teamId: seeded.teamId, runId, waitId });
  await workers.waitOpened({ teamId: seeded.teamId, runId, waitId });

  const post = await waitFor(
    async () => received.find((r) => r.path === "/waits"),
    20_000,
    "the wait.opened notification",
  );
  expect(() =>
    verifySignature({ secret: waits.secret, header: post.signature, body: post.body }),
  ).not.toThrow();
  const payload = JSON.parse(post.body) as NotificationPayload;
  expect(payload).toMatchObject({
    event: "wait.opened",
    run: { id: runId, workflow: "merge-bot", status: "waiting" },
    wait: {
      id: waitId,
      kind: "tool_call",
      question: "Allow github_merge_pull_request?",
      url: `https://switchyard.example.com/runs/${runId}`,
    },
  });
  const delivery = await db.notificationDelivery.findFirst({
    where: { teamId: seeded.teamId, event: "wait.opened" },
  });
  expect(delivery?.waitId).toBe(waitId);

  // The starter may not answer this wait, nor may the viewer: the admin alone is mailed.
  await waitFor(async () => (mails.length >= 2 ? true : undefined), 10_000, "the mails");
  expect(mails.every((m) => m.to === "admin@test.local")).toBe(true);
  expect(mails[0]!.body).toContain(`https://switchyard.example.com/runs/${runId}`);
  expect(mails[0]!.body).toContain("Allow github_merge_pull_request?");

  await new Promise((r) => setTimeout(r, 1000));
  expect(received.filter((r) => r.path === "/waits")).toHaveLength(1);
  expect(received.some((r) => r.path === "/runs-only")).toBe(false);
});
