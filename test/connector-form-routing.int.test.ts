/**
 * A connector server's form reaches the person whose call it belongs to, and dies with that
 * call, on the worker's shared pool (docs/connectors.md, "Forms a server asks for"): two
 * runs started by two members use one team connector at once, so their calls share one
 * pooled connection to a real streamable HTTP server on the SDK. The form the server asks
 * during one run's `deploy` opens a wait for that run (its starter answers it), never the
 * other's; a form that names no call while two calls are in flight is cancelled and
 * audited; a form whose call the agent gave up on is closed, and the server hears cancel.
 */
import type { Server } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditRefusedForm } from "../apps/worker/src/elicitation-waits";
import { createLogger } from "../apps/worker/src/logger";
import type { WorkerConnectors } from "../apps/worker/src/team-connectors";
import { webEgress } from "~/server/egress";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { memberRuns } from "./helpers/member-runs";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { serveMcpSessions } from "./helpers/stateful-mcp-server";
import { waitFor } from "./helpers/worker-process";
import { loopbackWorkerConnectors } from "./helpers/worker-step-connectors";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
const log = createLogger("error", { service: "test" });
const CONNECTOR_KEY = "deploy-key-routing-7d41c09e";
type Runs = Awaited<ReturnType<typeof memberRuns>>;

let seeded: SeededDatabase;
let connectors: WorkerConnectors;
let server: Server;
let memberId: string;
/** What the server's forms were answered with, by tool call. */
const answers = new Map<string, unknown>();
/** Releases the `hold` calls in flight. */
let release: () => void = () => undefined;
let held = new Promise<void>((resolve) => (release = resolve));

const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const as = (userId: string) => dashboardCaller({ db: seeded.db, keyring, egress }, userId);

/**
 * A stateful streamable HTTP server: `deploy` asks a form on its call's stream, `stray` asks
 * one that names no call (the session's own stream), `hold` waits until released. Neither
 * form is withdrawn when its call is cancelled, as many servers do.
 */
const startServer = async () => {
  const form = {
    message: "Which branch?",
    requestedSchema: {
      type: "object" as const,
      properties: { branch: { type: "string" as const, default: "main" } },
    },
  };
  const mcpFor = () => {
    const mcp = new McpServer({ name: "deployer", version: "1.0.0" });
    const reply = (key: string, result: { action: string; content?: unknown }) => {
      answers.set(key, result);
      return { content: [{ type: "text" as const, text: `${key}: ${result.action}` }] };
    };
    mcp.registerTool(
      "deploy",
      { description: "Deploys after asking", inputSchema: {} },
      async (_args, extra) =>
        reply(
          `deploy ${String(extra.requestId)}`,
          await extra.sendRequest(
            { method: "elicitation/create", params: form },
            ElicitResultSchema,
            {
              timeout: 120_000,
            },
          ),
        ),
    );
    mcp.registerTool("stray", { description: "Asks out of band", inputSchema: {} }, async () =>
      reply(
        "stray",
        await mcp.server.request(
          { method: "elicitation/create", params: form },
          ElicitResultSchema,
          {
            timeout: 120_000,
          },
        ),
      ),
    );
    mcp.registerTool("hold", { description: "Waits", inputSchema: {} }, async () => {
      await held;
      return { content: [{ type: "text" as const, text: "held" }] };
    });
    return mcp;
  };
  return serveMcpSessions(mcpFor);
};

let stepOf: Runs["stepOf"];

type Step = Awaited<ReturnType<Runs["stepOf"]>>;

/** `act` runs while `holder`'s run has a call in flight on the same pooled connection; both steps are closed after. */
const whileAnotherRunHolds = async (
  holder: Step,
  other: Step,
  act: (holder: Step, other: Step) => Promise<void>,
) => {
  const holding = holder.host.callTool("deployer", "hold", {});
  await new Promise((r) => setTimeout(r, 500));
  try {
    await act(holder, other);
  } finally {
    release();
    await holding;
    held = new Promise<void>((resolve) => (release = resolve));
    await holder.host.close();
    await other.host.close();
  }
};

const text = (result: { content?: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("");

const formsOf = (runId: string) =>
  seeded.db.wait.findMany({ where: { runId, kind: "elicitation" } });

beforeAll(async () => {
  seeded = await openSeededDatabase();
  const started = await startServer();
  server = started.http;
  connectors = loopbackWorkerConnectors({ onFormRefused: auditRefusedForm(seeded.db, log) });
  ({ memberId, stepOf } = await memberRuns(seeded, keyring, connectors, "deployer"));
  await as(seeded.adminId).connectors.create({
    definition: {
      id: "deployer",
      name: "Deployer",
      transport: "http",
      url: started.url,
      auth: "bearer",
      lanes: ["*"],
    },
  });
  await as(seeded.adminId).connectors.setCredential({
    id: "deployer",
    scope: "team",
    value: CONNECTOR_KEY,
  });
}, 120_000);
afterAll(async () => {
  release();
  await connectors?.pool.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await seeded?.close();
});

it("opens the form for the run whose call the server asked during, not another run's on the same connection", async () => {
  // The admin's run has a call in flight (one that may ask forms) on the pooled connection.
  await whileAnotherRunHolds(
    await stepOf(seeded.adminId),
    await stepOf(memberId),
    async (first, second) => {
      const deploying = second.host.callTool("deployer", "deploy", {});
      const form = await waitFor(
        async () => (await formsOf(second.runId))[0],
        30_000,
        "the member's run's form",
      );
      expect(form).toMatchObject({ status: "open", starterOnly: true, runId: second.runId });
      expect(await formsOf(first.runId)).toEqual([]);
      // The member who started that run may answer it; the admin, who started the other, may not.
      expect((await as(memberId).waits.get({ id: form.id })).mayAnswer).toBe(true);
      expect((await as(seeded.adminId).waits.get({ id: form.id })).mayAnswer).toBe(false);
      await as(memberId).waits.answer({
        id: form.id,
        action: "accept",
        content: { branch: "dev" },
      });
      expect(text(await deploying)).toMatch(/^deploy \S+: accept$/);
      expect([...answers.values()]).toContainEqual({
        action: "accept",
        content: { branch: "dev" },
      });
    },
  );
}, 90_000);

it("cancels a form of a call whose run cannot be asked, rather than asking another run's starter", async () => {
  // A call with nobody to ask (a step without forms) is the one the server asks during.
  await whileAnotherRunHolds(
    await stepOf(seeded.adminId),
    await stepOf(memberId, false),
    async (holder, silent) => {
      const result = await silent.host.callTool("deployer", "deploy", {});
      expect(text(result)).toMatch(/^deploy \S+: cancel$/);
      expect(await formsOf(holder.runId)).toEqual([]);
    },
  );
}, 90_000);

it("cancels and audits a form that names no call while two calls are in flight", async () => {
  await whileAnotherRunHolds(
    await stepOf(seeded.adminId),
    await stepOf(memberId),
    async (first, second) => {
      const result = await second.host.callTool("deployer", "stray", {});
      expect(text(result)).toBe("stray: cancel");
      expect([...(await formsOf(first.runId)), ...(await formsOf(second.runId))]).toEqual([]);
      const audit = await waitFor(
        async () =>
          (
            await seeded.db.auditLog.findMany({ where: { action: "connector.form_cancelled" } })
          ).find((a) => (a.metadata as { reason: string }).reason.includes("names no call")),
        10_000,
        "the audit entry",
      );
      expect(audit).toMatchObject({
        teamId: seeded.teamId,
        targetType: "connector",
        targetId: "deployer",
      });
      expect(audit.metadata).toMatchObject({ owner: "team" });
      // Nothing of the server's credential in the entry.
      expect(JSON.stringify(audit)).not.toContain(CONNECTOR_KEY);
    },
  );
}, 90_000);

it("closes the form of a call the agent gave up on, and tells the server cancel", async () => {
  const step = await stepOf(memberId);
  const before = answers.size;
  const giving = step.host.callTool("deployer", "deploy", {}, AbortSignal.timeout(3_000));
  const form = await waitFor(async () => (await formsOf(step.runId))[0], 30_000, "the form");
  expect(form.status).toBe("open");
  await expect(giving).rejects.toThrow();
  // Closed within a poll or two of the call's end, long before its 60 s expiry.
  const closed = await waitFor(
    async () => {
      const now = await seeded.db.wait.findUniqueOrThrow({ where: { id: form.id } });
      return now.status === "open" ? undefined : now;
    },
    5_000,
    "the form closed",
  );
  expect(closed.status).toBe("cancelled");
  await waitFor(
    async () => (answers.size > before ? true : undefined),
    5_000,
    "the server's answer",
  );
  expect([...answers.values()].at(-1)).toEqual({ action: "cancel" });
  await step.host.close();
}, 90_000);
