/**
 * A form a server asks inside a task (the 2025-11-25 tasks form) reaches the run's starter
 * (docs/connectors.md, "Long calls (MCP tasks)"): a stateful streamable HTTP server on
 * `@modelcontextprotocol/server` 2 runs `release` as a task that stops at `input_required`;
 * the worker's pool asks `tasks/result`, on which the server sends its form naming the task,
 * the form becomes a wait for the run's starter, the answer goes back to the server, and the
 * call gets the tool's result once the task has ended. A step that asks nobody still gets the
 * task cancelled with EXECUTION.CONNECTOR_TASK_INPUT_REQUIRED.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { connectorTasksOfRun } from "@switchyard/db";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { z } from "zod";
import type { WorkerConnectors } from "../apps/worker/src/team-connectors";
import { webEgress } from "~/server/egress";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { memberRuns } from "./helpers/member-runs";
import { TEST_SERVERS_HOST } from "./helpers/recording-mcp-server";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { waitFor } from "./helpers/worker-process";
import { loopbackWorkerConnectors } from "./helpers/worker-step-connectors";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
const RELATED_TASK = "io.modelcontextprotocol/related-task";
type Runs = Awaited<ReturnType<typeof memberRuns>>;

type Entry = {
  task: Record<string, unknown> & { taskId: string; status: string };
  result?: { content: { type: "text"; text: string }[] };
  /** What the form inside the task was answered with, and the `_meta` it was sent with. */
  answer?: unknown;
};
const tasks = new Map<string, Entry>();

let seeded: SeededDatabase;
let connectors: WorkerConnectors;
let http: HttpServer;
let memberId: string;

const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const as = (userId: string) => dashboardCaller({ db: seeded.db, keyring, egress }, userId);

const TaskParams = z.object({ taskId: z.string() }).passthrough();
const Anything = z.object({}).passthrough();

/** One session's server: `release` runs as a task that soon asks which version to release. */
const serverFor = () => {
  const server = new Server(
    { name: "releaser", version: "1.0.0" },
    {
      capabilities: { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } },
      supportedProtocolVersions: ["2025-11-25"],
    },
  );
  server.setRequestHandler("tools/list", () => ({
    tools: [
      {
        name: "release",
        description: "Releases, after asking which version",
        inputSchema: { type: "object" as const, properties: {} },
        execution: { taskSupport: "optional" as const },
      },
    ],
  }));
  server.setRequestHandler("tools/call", () => {
    const now = new Date().toISOString();
    const taskId = randomUUID();
    const entry: Entry = {
      task: {
        taskId,
        status: "working",
        ttl: 60_000,
        createdAt: now,
        lastUpdatedAt: now,
        pollInterval: 100,
      },
    };
    tasks.set(taskId, entry);
    setTimeout(() => (entry.task = { ...entry.task, status: "input_required" }), 300);
    // The v2 SDK checks every tools/call answer as a tool result, which needs `content`.
    return { task: { ...entry.task }, content: [] };
  });
  const find = (taskId: string) => {
    const entry = tasks.get(taskId);
    if (!entry) throw Object.assign(new Error(`no task ${taskId}`), { code: -32602 });
    return entry;
  };
  server.setRequestHandler("tasks/get", { params: TaskParams, result: Anything }, (params) => ({
    ...find(params.taskId).task,
  }));
  server.setRequestHandler("tasks/cancel", { params: TaskParams, result: Anything }, (params) => {
    const entry = find(params.taskId);
    entry.task = { ...entry.task, status: "cancelled" };
    return { ...entry.task };
  });
  server.setRequestHandler(
    "tasks/result",
    { params: TaskParams, result: Anything },
    async (params, ctx) => {
      const entry = find(params.taskId);
      while (entry.task.status === "working") await new Promise((r) => setTimeout(r, 50));
      if (entry.task.status === "input_required") {
        const answer = await ctx.mcpReq.elicitInput(
          {
            message: "Which version should be released?",
            requestedSchema: {
              type: "object",
              properties: { version: { type: "string", title: "Version", default: "1.0.0" } },
              required: ["version"],
            },
            _meta: { [RELATED_TASK]: { taskId: entry.task.taskId } },
          },
          { timeout: 120_000 },
        );
        entry.answer = answer;
        entry.result = {
          content: [
            {
              type: "text",
              text:
                answer.action === "accept"
                  ? `released ${String(answer.content?.version)}`
                  : `not released: ${answer.action}`,
            },
          ],
        };
        entry.task = { ...entry.task, status: "completed" };
      }
      return { ...entry.result, _meta: { [RELATED_TASK]: { taskId: entry.task.taskId } } };
    },
  );
  return server;
};

/** Sessions of a stateful streamable HTTP server, streamed through node:http as they come. */
const startServer = async () => {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const handle = async () => {
        const request = new Request(`http://${req.headers.host}${req.url}`, {
          method: req.method ?? "GET",
          headers: Object.entries(req.headers).flatMap(([k, v]) =>
            v === undefined
              ? []
              : (Array.isArray(v) ? v : [v]).map((one) => [k, one] as [string, string]),
          ),
          ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        });
        const sid = req.headers["mcp-session-id"];
        let transport = typeof sid === "string" ? sessions.get(sid) : undefined;
        if (!transport) {
          const created = new WebStandardStreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id) => void sessions.set(id, created),
          });
          await serverFor().connect(created);
          transport = created;
        }
        const response = await transport.handleRequest(request);
        response.headers.forEach((value, key) => res.setHeader(key, value));
        res.writeHead(response.status);
        const reader = response.body?.getReader();
        for (let read = await reader?.read(); read && !read.done; read = await reader?.read())
          res.write(read.value);
        res.end();
      };
      handle().catch((error: Error) => {
        if (!res.headersSent) res.writeHead(500).end(error.message);
        else res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, TEST_SERVERS_HOST, resolve));
  return {
    server,
    url: `http://${TEST_SERVERS_HOST}:${(server.address() as AddressInfo).port}/mcp`,
  };
};

let stepOf: Runs["stepOf"];

const text = (result: { content?: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("");

beforeAll(async () => {
  seeded = await openSeededDatabase();
  const started = await startServer();
  http = started.server;
  await as(seeded.adminId).connectors.create({
    definition: {
      id: "releaser",
      name: "Releaser",
      transport: "http",
      url: started.url,
      auth: "none",
      lanes: ["*"],
    },
  });
  // The tasks are polled often: the test's server asks every 100 ms.
  connectors = loopbackWorkerConnectors({ taskPollBounds: { minMs: 50, maxMs: 1_000 } });
  ({ memberId, stepOf } = await memberRuns(seeded, keyring, connectors, "releaser"));
}, 120_000);
afterAll(async () => {
  await connectors?.pool.close();
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
  await seeded?.close();
});

it("asks the run's starter the form a task sends on its result, answers the server, and returns the task's result", async () => {
  const step = await stepOf(memberId, true);
  const calling = step.host.callTool("releaser", "release", {});
  const form = await waitFor(
    async () =>
      (await seeded.db.wait.findFirst({ where: { runId: step.runId, kind: "elicitation" } })) ??
      undefined,
    30_000,
    "the task's form",
  );
  expect(form).toMatchObject({ status: "open", starterOnly: true });
  expect(form.question).toContain("releaser asks: Which version should be released?");
  // The task waits at its server for the answer, not cancelled.
  const [row] = await connectorTasksOfRun(seeded.db, seeded.teamId, step.runId);
  expect(row).toMatchObject({ tool: "release", status: "input_required" });
  expect(tasks.get(row!.taskId)!.task.status).toBe("input_required");
  // The starter answers; the admin, who did not start the run, may not.
  expect((await as(seeded.adminId).waits.get({ id: form.id })).mayAnswer).toBe(false);
  await as(memberId).waits.answer({ id: form.id, action: "accept", content: { version: "2.4.1" } });
  const result = await calling;
  expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
  expect(text(result)).toBe("released 2.4.1");
  expect(tasks.get(row!.taskId)!.answer).toEqual({
    action: "accept",
    content: { version: "2.4.1" },
  });
  // Kept as ended once its result was in hand.
  expect((await connectorTasksOfRun(seeded.db, seeded.teamId, step.runId))[0]).toMatchObject({
    status: "completed",
  });
  await step.host.close();
}, 90_000);

it("cancels a task that asks for input when its step has nobody to ask", async () => {
  const step = await stepOf(seeded.adminId, false);
  const outcome = await step.host.callTool("releaser", "release", {}).then(
    (result) => JSON.stringify(result),
    (error: unknown) =>
      JSON.stringify({ code: (error as { code?: string }).code, message: String(error) }),
  );
  expect(outcome).toContain("EXECUTION.CONNECTOR_TASK_INPUT_REQUIRED");
  const [row] = await connectorTasksOfRun(seeded.db, seeded.teamId, step.runId);
  expect(tasks.get(row!.taskId)!.task.status).toBe("cancelled");
  expect(await seeded.db.wait.findMany({ where: { runId: step.runId } })).toEqual([]);
  await step.host.close();
}, 90_000);
