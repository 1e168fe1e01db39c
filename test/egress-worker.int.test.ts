/**
 * The worker's requests on a team's behalf obey the egress rule: a real worker whose
 * allow-list names only 127.0.0.2 (127.0.0.1 stands for the internal network). An
 * openai_compatible step whose base URL the model endpoint list allows still cannot reach
 * a model on an internal address (the step fails USER.EGRESS.DENIED and the model gets
 * nothing), while the same model on a listed address answers; a notification to an internal
 * receiver is refused and recorded as such (no body of anyone's in the record), while the
 * listed receiver gets its POST.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { saveWorkflowVersion } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webEgress } from "~/server/egress";
import { openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, waitFor } from "./helpers/worker-process";

const ALLOW = "127.0.0.2/32";
let stack: RunStack;
let inside: ScriptedModel;
let outside: ScriptedModel;
const receivers: Server[] = [];
const hits = { inside: 0, outside: 0 };
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
// The web app saves what its own list allows: here loopback as a whole, so the worker's refusal is what is tested.
const caller = () =>
  dashboardCaller(
    { ...stack, keyring, egress: webEgress(parseEgressAllowList("127.0.0.0/8")) },
    stack.adminId,
  );

const receiver = async (host: string, count: () => void) => {
  const server = createServer((req, res) => {
    count();
    req.resume();
    res.end("RECEIVER-BODY-TEXT");
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  receivers.push(server);
  return `http://${host}:${(server.address() as AddressInfo).port}/hook`;
};

const script = { turns: [], rules: [{ match: { pathRegex: "." }, text: "the model answered" }] };

beforeAll(async () => {
  buildSwitchyardCli();
  inside = await startScriptedModel({ host: "127.0.0.1", script });
  outside = await startScriptedModel({ host: "127.0.0.2", script });
  stack = await openRunStack({
    SWITCHYARD_EGRESS_ALLOW: ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${inside.url}/v1,${outside.url}/v1`,
  });
  await caller().variables.set({
    name: "MODEL_KEY",
    value: "sk-egress-key-1234567890",
    secret: true,
    lanes: ["default"],
  });
}, 300_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await inside?.close();
  await outside?.close();
  for (const s of receivers) await new Promise((r) => s.close(r));
});

const runAgainst = async (name: string, model: ScriptedModel) => {
  const yaml = `name: ${name}\nstates:\n  initial: agent\n${openAiAgentState(model.url, "say something", "done")}  done:\n    type: terminal\n    status: success\n`;
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name,
    files: { "workflow.yaml": yaml },
  });
  const { id } = await caller().runs.start({ workflowId });
  return runEnded(() => caller().runs.get({ id }), `run ${name}`, 120_000);
};

describe("the worker's egress", () => {
  it("keeps an openai_compatible step from an internal model the endpoint list allows, and lets it reach a listed one", async () => {
    const refused = await runAgainst("model-inside", inside);
    expect(refused.status).toBe("failed");
    const step = refused.steps.find((s) => s.stateName === "agent")!;
    expect(step.errorCode).toBe("USER.EGRESS.DENIED");
    expect(step.errorMessage).toContain("127.0.0.1");
    expect(inside.requests).toHaveLength(0);

    const reached = await runAgainst("model-outside", outside);
    expect(reached.status).toBe("succeeded");
    expect(outside.requests.length).toBeGreaterThan(0);
  }, 240_000);

  it("refuses a notification to an internal receiver and records why, and delivers to a listed one", async () => {
    const internalUrl = await receiver("127.0.0.1", () => hits.inside++);
    const listedUrl = await receiver("127.0.0.2", () => hits.outside++);
    const refused = await caller().notifications.create({
      url: internalUrl,
      events: ["run.succeeded"],
    });
    const listed = await caller().notifications.create({
      url: listedUrl,
      events: ["run.succeeded"],
    });
    await caller().notifications.sendTest({ id: refused.endpoint.id });
    await caller().notifications.sendTest({ id: listed.endpoint.id });
    const deliveries = await waitFor(
      async () => {
        const { deliveries } = await caller().notifications.deliveries();
        const mine = deliveries.filter(
          (d) => d.endpointId === refused.endpoint.id || d.endpointId === listed.endpoint.id,
        );
        const byId = new Map(mine.map((d) => [d.endpointId, d]));
        return byId.get(listed.endpoint.id)?.status === "delivered" &&
          byId.get(refused.endpoint.id)?.lastError
          ? byId
          : undefined;
      },
      30_000,
      "both attempts",
    );
    expect(deliveries.get(refused.endpoint.id)?.lastError).toMatch(
      /^USER\.EGRESS\.DENIED: Switchyard does not send requests to 127\.0\.0\.1/,
    );
    expect(deliveries.get(listed.endpoint.id)?.lastStatusCode).toBe(200);
    expect(JSON.stringify([...deliveries.values()])).not.toContain("RECEIVER-BODY-TEXT");
    expect(hits).toEqual({ inside: 0, outside: 1 });
  }, 90_000);
});
