/**
 * Agent steps under a worker started with SWITCHYARD_SANDBOX=none (development only): every
 * provider runs unconfined, its CLI and its proxy started from their host paths (nothing is
 * bound at that level), its model reached through the gateway's loopback TCP port. Each
 * step's model (a scripted model on 127.0.0.1 per provider) asks for Write, then Read: both
 * are ToolCall rows of the proxy, the Read sees what the Write wrote, and the step records
 * level `none`.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { fingerprint, startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PROVIDER_ROWS,
  WRITE_READ_ANSWER,
  writeReadTurns,
  writeReadWorkflow,
  writtenBy,
} from "@switchyard/testing/agents";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli } from "./helpers/worker-process";

const KEY_HEAD = "sk-none-team";
const KEY = `${KEY_HEAD}-3f8a1c6e9d24`;

const say = (line: string) => console.log(`[agent-sandbox-none] ${line}`);
const missing = new Set(
  PROVIDER_ROWS.flatMap((row) => (row.agent && !installedAgent(row.agent, say) ? [row.agent] : [])),
);

let stack: RunStack;
const models = new Map<string, ScriptedModel>();
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const caller = () => dashboardCaller({ ...stack, keyring }, stack.adminId);

describe("agent steps in a worker at sandbox level none", () => {
  beforeAll(async () => {
    buildSwitchyardCli();
    for (const row of PROVIDER_ROWS)
      models.set(
        row.provider,
        await startScriptedModel({ host: "127.0.0.1", script: { turns: writeReadTurns(row) } }),
      );
    stack = await openRunStack({
      SWITCHYARD_SANDBOX: "none",
      SWITCHYARD_AGENTS_DIR: AGENTS_DIR,
      SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
      SWITCHYARD_MODEL_ENDPOINTS: `${models.get("openai_compatible")!.url}/v1`,
    });
    await caller().variables.set({
      name: "MODEL_KEY",
      value: KEY,
      secret: true,
      lanes: ["default"],
    });
  }, 900_000);
  afterAll(async () => {
    if (stack) await closeRunStack(stack);
    for (const model of models.values()) await model.close();
  });

  it.each(PROVIDER_ROWS)(
    "runs a $provider step unconfined, its tools through the proxy",
    async (row) => {
      if (row.agent && missing.has(row.agent)) return say(`SKIPPED ${row.provider}: not installed`);
      const model = models.get(row.provider)!;
      if (row.vendor)
        await caller().models.set({
          vendor: row.vendor,
          endpoint: row.endpoint(model.url),
          apiKey: KEY,
        });
      const name = `none-${row.provider.replace(/_/g, "-")}`;
      const workflow = writeReadWorkflow(
        name,
        row,
        model.url,
        row.vendor ? {} : { api_key: "{{.env.MODEL_KEY}}" },
      );
      const { workflowId } = await saveWorkflowVersion(stack.db, {
        teamId: stack.teamId,
        name,
        files: { "workflow.yaml": workflow },
      });
      const id = (await caller().runs.start({ workflowId })).id;
      const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 240_000);
      const trace = JSON.stringify({
        run: [run.errorCode, run.errorMessage],
        steps: run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
        failures: model.failures,
      });
      expect(run.status, trace).toBe("succeeded");
      expect(model.failures).toEqual([]);
      const agent = run.steps.find((s) => s.stateName === "agent")!;
      expect(agent.sandboxLevel).toBe("none");
      expect(run.steps.find((s) => s.stateName === "echo")!.stdout.trim()).toBe(
        `answer=${WRITE_READ_ANSWER}`,
      );
      const calls = await listStepToolCalls(stack.db, stack.teamId, agent.id);
      expect(calls.map((c) => [c.toolName, c.source, c.fidelity, c.isError])).toEqual([
        ["Write", "builtin", "proxy", false],
        ["Read", "builtin", "proxy", false],
      ]);
      expect(JSON.stringify(calls[1]!.result)).toContain(writtenBy(row).trim());
      // The team's key went upstream with every request the step made.
      const turns = model.requests.filter((q) => q.auth.length > 0);
      expect(turns.length).toBeGreaterThanOrEqual(3);
      expect(turns.every((q) => q.auth.some((a) => a.fingerprint === fingerprint(KEY)))).toBe(true);
    },
    300_000,
  );
});
