/**
 * A worker whose agents folder holds a CLI at another version than scripts/agents.json pins
 * (the real pinned Codex, in a folder of hard links whose package.json says another
 * version): its heartbeat, as the Workers page reads it (tRPC `system.workers`), marks the
 * drift; at boot and when a run stages the CLI it logs a warning once; the run's step runs
 * all the same, the run gets an `agent.version_drift` event, and its StepRun the version
 * that ran.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { saveWorkflowVersion } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import {
  driftedAgentsDir,
  pinnedVersion,
  PROVIDER_ROWS,
  WRITE_READ_ANSWER,
  writeReadTurns,
  writeReadWorkflow,
} from "@switchyard/testing/agents";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, expect, it } from "vitest";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, waitFor } from "./helpers/worker-process";

const DRIFTED = "0.170.9";
const row = PROVIDER_ROWS.find((r) => r.provider === "codex")!;
const located = installedAgent("codex", (line) => console.log(`[version-drift] ${line}`));
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);

let base: string | undefined;
let stack: RunStack | undefined;
let model: ScriptedModel | undefined;
const caller = () => dashboardCaller({ ...stack!, keyring }, stack!.adminId);

beforeAll(async () => {
  if (!located) return;
  buildSwitchyardCli();
  base = await mkdtemp(path.join(tmpdir(), "sy-drift-"));
  const agentsDir = await driftedAgentsDir(AGENTS_DIR, path.join(base, "agents"), "codex", DRIFTED);
  stack = await openRunStack({
    SWITCHYARD_AGENTS_DIR: agentsDir,
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
  });
  model = await startScriptedModel({ host: "127.0.0.1", script: { turns: writeReadTurns(row) } });
  await caller().models.set({
    vendor: "openai",
    endpoint: row.endpoint(model.url),
    apiKey: "sk-team-drift-5c2e9a71",
  });
}, 300_000);
afterAll(async () => {
  await model?.close();
  if (stack) await closeRunStack(stack);
  if (base) await rm(base, { recursive: true, force: true });
});

it.skipIf(!located)(
  "marks the drift in the heartbeat, logs it once, and records it on a run whose step runs all the same",
  async () => {
    const pinned = pinnedVersion("codex");
    const workers = await caller().system.workers();
    expect(workers).toHaveLength(1);
    const codex = workers[0]!.agents?.find((a) => a.agent === "codex");
    expect(codex).toEqual({
      agent: "codex",
      pinned,
      installed: DRIFTED,
      latest: null,
      drift: true,
    });
    // Only Codex and the runtime are in this agents folder.
    expect(workers[0]!.agents?.find((a) => a.agent === "claude")).toMatchObject({
      installed: null,
      drift: false,
    });

    const { workflowId } = await saveWorkflowVersion(stack!.db, {
      teamId: stack!.teamId,
      name: "drifted-codex",
      files: { "workflow.yaml": writeReadWorkflow("drifted-codex", row, model!.url) },
    });
    const id = (await caller().runs.start({ workflowId })).id;
    const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 240_000);
    const agent = run.steps.find((s) => s.stateName === "agent")!;
    expect(run.status, JSON.stringify([agent.errorMessage, model!.failures])).toBe("succeeded");
    expect(agent.output).toBe(WRITE_READ_ANSWER);

    const drifts = await stack!.db.runEvent.findMany({
      where: { runId: id, type: "agent.version_drift" },
    });
    expect(drifts.map((e) => e.payload)).toEqual([{ cli: "codex", pinned, installed: DRIFTED }]);
    const stepRun = await stack!.db.stepRun.findFirstOrThrow({ where: { id: agent.id } });
    expect(stepRun.agentVersion).toBe(DRIFTED);

    const warning = `codex ${DRIFTED} is installed, scripts/agents.json pins ${pinned}`;
    await waitFor(
      () => Promise.resolve(stack!.worker.logs().includes(warning) || undefined),
      10_000,
      "the worker's warning",
    );
    expect(stack!.worker.logs().split(warning)).toHaveLength(2);
  },
  300_000,
);
