/**
 * A connector server's form during a tool call (elicitation) reaches a person through the
 * real worker (docs/connectors.md, "Forms a server asks for"): an http connector built on the
 * SDK asks, in the middle of `deploy`, which branch to deploy; the openai_compatible agent
 * step's call is held while a wait of kind `elicitation` is open for the run's starter, with
 * the form drawn from the schema and the server's message scrubbed of the connector's key.
 * Answered through the API: an answer that does not fit the form is refused naming the field,
 * another member may not answer, an accept sends the values with the form's defaults, and
 * the tool's result (only that) reaches the agent. A decline and an expiry are sent to the
 * server as the spec says (decline, cancel). The worker reads a form's wait hourly here, so an
 * answer reaches the server only through its announcement.
 */
import type { Server } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, expect, it } from "vitest";
import { webEgress } from "~/server/egress";
import { openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { serveMcpSessions } from "./helpers/stateful-mcp-server";
import { addMember } from "./helpers/team-member";
import { buildSwitchyardCli, waitFor } from "./helpers/worker-process";

const CONNECTOR_KEY = "deploy-key-4c9e1a7f2b6d8035";
const MODEL_KEY = "sk-model-key-elicit-81d3";
const HOLD_MS = 6000;

let stack: RunStack;
let model: ScriptedModel;
let server: Server;
let serverUrl: string;
let memberId: string;
/** What the server's form was answered with, call by call. */
const answers: unknown[] = [];
const keyring = environmentKeyring();
/** The test's connector listens on loopback, which the operator's allow-list names. */
const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const as = (userId: string) => dashboardCaller({ ...stack, keyring, egress }, userId);
const admin = () => as(stack.adminId);

/** A stateful streamable HTTP MCP server whose `deploy` asks for a form before it answers. */
const startElicitingServer = async () => {
  const mcpFor = () => {
    const mcp = new McpServer({ name: "deployer", version: "1.0.0" });
    mcp.registerTool(
      "deploy",
      { description: "Deploys after asking which branch", inputSchema: {} },
      async (_args, extra) => {
        const bearer = /^Bearer (.+)$/i.exec(
          String(extra.requestInfo?.headers.authorization ?? ""),
        )?.[1];
        const result = await extra.sendRequest(
          {
            method: "elicitation/create",
            params: {
              // A careless server that echoes its credential: never stored as it is.
              message: `Which branch should be deployed? (key ${bearer})`,
              requestedSchema: {
                type: "object",
                properties: {
                  branch: { type: "string", title: "Branch", default: "main" },
                  confirm: { type: "boolean", title: "Really deploy?" },
                  env: { type: "string", enum: ["staging", "production"], default: "staging" },
                },
                required: ["confirm"],
              },
            },
          },
          ElicitResultSchema,
          { timeout: 120_000 },
        );
        answers.push(result);
        return {
          content: [
            {
              type: "text" as const,
              text:
                result.action === "accept"
                  ? `deployed ${String(result.content?.branch)} to ${String(result.content?.env)}`
                  : `not deployed: ${result.action}`,
            },
          ],
        };
      },
    );
    return mcp;
  };
  return serveMcpSessions(mcpFor);
};

beforeAll(async () => {
  buildSwitchyardCli();
  ({ http: server, url: serverUrl } = await startElicitingServer());
  const turns = (marker: string) => [
    {
      match: { messagesContain: marker },
      times: 1,
      toolCalls: [{ name: "deployer_deploy", arguments: {} }],
    },
    { match: { messagesContain: marker }, times: 1, text: `done ${marker}` },
  ];
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [...turns("ELICIT-ACCEPT"), ...turns("ELICIT-DECLINE"), ...turns("ELICIT-EXPIRE")],
    },
  });
  stack = await openRunStack({
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_APPROVAL_HOLD_MS: String(HOLD_MS),
    // An hour between reads of a form's wait: an answered form reaches the server only
    // because the answer is announced (wait-wakers.ts).
    SWITCHYARD_WAIT_POLL_MS: "3600000",
  });
  memberId = await addMember(stack.db, stack.teamId, {
    email: "member@test.local",
    name: "Member",
    role: "member",
  });
  const modelKey = { name: "MODEL_KEY", value: MODEL_KEY, secret: true };
  await admin().variables.set({ ...modelKey, lanes: ["default"] });
  await admin().connectors.create({
    definition: {
      id: "deployer",
      name: "Deployer",
      transport: "http",
      url: serverUrl,
      auth: "bearer",
      lanes: ["*"],
    },
  });
  await admin().connectors.setCredential({ id: "deployer", scope: "team", value: CONNECTOR_KEY });
}, 300_000);
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  if (stack) await closeRunStack(stack);
  await model?.close();
});

/** A run of an agent step with the deployer connector, its prompt carrying `marker`. */
const start = async (name: string, marker: string) => {
  const agent = openAiAgentState(model.url, `${marker} deploy it`, "done").replace(
    "    timeout: 2m\n",
    "    timeout: 2m\n    mcp_proxy:\n      connectors: [deployer]\n",
  );
  const yaml = `name: ${name}\nstates:\n  initial: agent\n${agent}  done:\n    type: terminal\n    status: success\n`;
  const files = { "workflow.yaml": yaml };
  const { workflowId } = await saveWorkflowVersion(stack.db, { teamId: stack.teamId, name, files });
  return (await admin().runs.start({ workflowId })).id;
};

const formOf = (runId: string) =>
  waitFor(
    async () =>
      (await stack.db.wait.findFirst({ where: { runId, kind: "elicitation" } })) ?? undefined,
    60_000,
    `a form of run ${runId}`,
  );

const ended = (id: string) => runEnded(() => admin().runs.get({ id }), `run ${id}`, 120_000);

const toolResultOf = async (run: Awaited<ReturnType<typeof ended>>) => {
  const agent = run.steps.find((s) => s.stateName === "agent")!;
  const calls = await listStepToolCalls(stack.db, stack.teamId, agent.id);
  return { agent, calls, text: JSON.stringify(calls.map((c) => c.result)) };
};

it("holds the call on a form for the run's starter, checks the answer, and gives the agent the tool's result", async () => {
  const id = await start("elicit-accept", "ELICIT-ACCEPT");
  const form = await formOf(id);
  expect(form).toMatchObject({ kind: "elicitation", status: "open", starterOnly: true });
  expect(form.question).toContain("deployer asks: Which branch should be deployed?");
  const listed = await admin().waits.get({ id: form.id });
  expect(listed).toMatchObject({ mayAnswer: true, run: { workflow: "elicit-accept" } });
  expect(listed.detail).toMatchObject({
    connector: "deployer",
    tool: "deploy",
    state: "agent",
    fields: [
      { name: "branch", type: "string", default: "main", required: false },
      { name: "confirm", type: "boolean", required: true },
      { name: "env", type: "enum", default: "staging" },
    ],
  });
  // The connector's key the server echoed is scrubbed wherever the form is kept.
  const stored = JSON.stringify([form, await stack.db.auditLog.findMany()]);
  expect(stored).not.toContain(CONNECTOR_KEY);
  expect(JSON.stringify(form.detail)).toContain("[REDACTED]");
  // The run is running, its call held open.
  expect((await admin().runs.get({ id })).status).toBe("running");

  // Only the starter answers; an answer that does not fit the form names its field.
  await expect(as(memberId).waits.answer({ id: form.id, action: "accept" })).rejects.toMatchObject({
    cause: { code: "USER.WAIT.NOT_ALLOWED" },
  });
  await expect(
    admin().waits.answer({ id: form.id, action: "accept", content: { env: "moon" } }),
  ).rejects.toMatchObject({
    cause: { code: "USER.ELICITATION.INVALID_ANSWER", location: { path: "content.confirm" } },
  });
  await expect(
    admin().waits.answer({
      id: form.id,
      action: "accept",
      content: { confirm: true, env: "moon" },
    }),
  ).rejects.toMatchObject({
    cause: { code: "USER.ELICITATION.INVALID_ANSWER", location: { path: "content.env" } },
  });
  const answered = await admin().waits.answer({
    id: form.id,
    action: "accept",
    content: { confirm: true },
  });
  // The listing shows the action, never the values.
  expect(answered.wait.answer).toEqual({ action: "accept" });

  const run = await ended(id);
  expect(run.status, JSON.stringify(run.steps.map((s) => s.errorMessage))).toBe("succeeded");
  // The server got the values with the form's defaults for what was left out.
  expect(answers.at(-1)).toEqual({
    action: "accept",
    content: { branch: "main", confirm: true, env: "staging" },
  });
  const { agent, calls, text } = await toolResultOf(run);
  expect(calls.map((c) => [c.toolName, c.isError])).toEqual([["deployer_deploy", false]]);
  expect(text).toContain("deployed main to staging");
  expect(agent.output).toBe("done ELICIT-ACCEPT");
  // The agent's next request carried the tool's result and nothing of the form.
  const request = JSON.stringify(
    model.requests.filter((r) => JSON.stringify(r.body).includes("ELICIT-ACCEPT")).at(-1)!.body,
  );
  expect(request).toContain("deployed main to staging");
  expect(request).not.toContain("Which branch");
  const audit = await stack.db.auditLog.findMany({ where: { targetId: form.id } });
  expect(audit.map((a) => [a.action, (a.metadata as { decision?: string }).decision])).toEqual(
    expect.arrayContaining([
      ["wait.opened", undefined],
      ["wait.answered", "accept"],
    ]),
  );
}, 180_000);

it("sends a decline to the server, whose tool result the agent gets", async () => {
  const id = await start("elicit-decline", "ELICIT-DECLINE");
  const form = await formOf(id);
  await admin().waits.answer({ id: form.id, action: "decline" });
  const run = await ended(id);
  expect(run.status).toBe("succeeded");
  expect(answers.at(-1)).toEqual({ action: "decline" });
  expect((await toolResultOf(run)).text).toContain("not deployed: decline");
}, 180_000);

it("cancels a form nobody answered within the hold limit", async () => {
  const id = await start("elicit-expire", "ELICIT-EXPIRE");
  const form = await formOf(id);
  expect(form.expiresAt!.getTime() - form.createdAt.getTime()).toBeLessThanOrEqual(HOLD_MS + 1000);
  const run = await ended(id);
  expect(run.status).toBe("succeeded");
  expect(answers.at(-1)).toEqual({ action: "cancel" });
  expect((await toolResultOf(run)).text).toContain("not deployed: cancel");
  expect(await stack.db.wait.findUniqueOrThrow({ where: { id: form.id } })).toMatchObject({
    status: "expired",
    answer: { action: "cancel" },
  });
  await expect(admin().waits.answer({ id: form.id, action: "accept" })).rejects.toMatchObject({
    cause: { code: "USER.WAIT.EXPIRED" },
  });
}, 180_000);
