/**
 * AWF's cross-step session tracking through the real worker (docs/workflows.md, "Sessions"):
 * a `conversation: {}` step tells the agent a secret word, and a later step with
 * `conversation: {continue_from: seed}` asks for it. Each CLI (Claude Code, Codex, Gemini CLI,
 * OpenCode) resumes its own session and openai_compatible its stored messages, so the
 * scripted model gets the earlier turns with the question and answers from them. The session
 * is stored sealed with the run (no plaintext in the database), continues on a new worker
 * after the first one is killed (with the workspace the seed left, so a file it wrote is still
 * there), goes with the run, and a `continue_from` that names a step
 * that has not run, or ran without session tracking, fails with AWF's text.
 */
import { CLI_PROVIDERS } from "@switchyard/core/providers";
import { saveWorkflowVersion } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { CLI_ROWS } from "@switchyard/testing/agents";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, startWorker, waitFor } from "./helpers/worker-process";

const KEY = "sk-model-key-sessions-5d2a";
const WORKER_ID = `test-sessions-${Math.random().toString(36).slice(2, 8)}`;
let stack: RunStack;
let model: ScriptedModel;
let workerEnv: Record<string, string>;
const keyring = environmentKeyring();
const caller = () => dashboardCaller({ ...stack, keyring }, stack.adminId);

const AGENTS = ["openai", ...CLI_ROWS.map((row) => row.agent)];
const word = (agent: string) => `WORD${agent.toUpperCase()}42`;
const located = Object.fromEntries(
  CLI_ROWS.map((row) => [
    row.agent,
    installedAgent(row.agent, (line) => console.log(`[sessions ${row.agent}] ${line}`)),
  ]),
);

beforeAll(async () => {
  buildSwitchyardCli();
  // The recall is answered from the session only: the seed's answer (ACK-...) is in the
  // request only when the earlier turns came with it.
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        // The killed worker's run: the seed writes notes.txt, the recall reads it back.
        { match: { messagesContain: "FILEWORD-77" }, text: "the notes say FILEWORD-77" },
        { match: { messagesContain: "No such file" }, text: "the notes are gone" },
        {
          match: { messagesContain: "RECALLWS-openai" },
          toolCalls: [{ name: "Bash", arguments: { command: "cat notes.txt" } }],
        },
        { match: { messagesContain: "written-notes" }, text: "ACKWS-openai stored" },
        {
          match: { messagesContain: "SEEDWS-openai" },
          toolCalls: [
            {
              name: "Bash",
              arguments: { command: "printf 'FILE%s' WORD-77 > notes.txt && echo written-notes" },
            },
          ],
        },
        ...AGENTS.flatMap((agent) => [
          { match: { messagesContain: `ACK-${agent}` }, text: `the magic word is ${word(agent)}` },
          { match: { messagesContain: `SEED-${agent}` }, text: `ACK-${agent} stored` },
          { match: { messagesContain: `RECALL-${agent}` }, text: "I was never told a word" },
        ]),
      ],
    },
  });
  workerEnv = {
    SWITCHYARD_AGENTS_DIR: AGENTS_DIR,
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_JOB_LOCK_MS: "10000",
    SWITCHYARD_WORKER_ID: WORKER_ID,
  };
  stack = await openRunStack(workerEnv);
  await caller().variables.set({ name: "MODEL_KEY", value: KEY, secret: true, lanes: ["default"] });
  for (const row of CLI_ROWS) {
    if (!located[row.agent]) continue;
    const vendor = CLI_PROVIDERS[row.agent]!.cli.vendor;
    await caller().models.set({
      vendor,
      endpoint: vendor === "openai" ? `${model.url}/v1` : model.url,
      apiKey: `sk-sessions-${row.agent}-9e41b7`,
    });
  }
}, 900_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await model?.close();
});

/** An agent state of `agent` ("openai" is openai_compatible), with its extra lines. */
const agentState = (agent: string, name: string, prompt: string, extra: string, next: string) => {
  const row = CLI_ROWS.find((r) => r.agent === agent);
  const options = row
    ? `      model: ${row.model}\n`
    : `      base_url: ${model.url}/v1\n      model: scripted-1\n      api_key: "{{.env.MODEL_KEY}}"\n`;
  return `  ${name}:
    type: agent
    provider: ${row ? row.agent : "openai_compatible"}
    prompt: ${prompt}
${extra}    options:
${options}    timeout: 4m
    on_success: ${next}
`;
};

const seedAndRecall = (agent: string, between = "") => `name: sessions-${agent}
states:
  initial: seed
${agentState(agent, "seed", `"SEED-${agent} Remember this secret: the magic word is ${word(agent)}. Reply with exactly stored."`, "    conversation: {}\n", between ? "pause" : "recall")}${between}${agentState(agent, "recall", `"RECALL-${agent} What was the magic word I told you to remember?"`, "    conversation:\n      continue_from: seed\n", "done")}  done:
    type: terminal
    status: success
`;

const start = async (name: string, yaml: string) => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name,
    files: { "workflow.yaml": yaml },
  });
  return (await caller().runs.start({ workflowId })).id;
};

const describeRun = (run: Awaited<ReturnType<ReturnType<typeof caller>["runs"]["get"]>>) =>
  JSON.stringify([
    run.errorCode,
    run.errorMessage,
    run.steps.map((x) => [x.stateName, x.status, x.errorCode, x.errorMessage]),
  ]);

type Conversation = {
  session_id: string;
  turns: { role: string; content: string }[];
  total_turns: number;
  continued_from?: string;
  provider: string;
};
const conversationsOf = async (runId: string) => {
  const row = await stack.db.run.findUniqueOrThrow({ where: { id: runId } });
  const results = (row.checkpoint as { results: Record<string, { conversation?: Conversation }> })
    .results;
  return { seed: results.seed?.conversation, recall: results.recall?.conversation };
};

/** What the model got with the recall question: every text of the request. */
const recallRequests = (agent: string) =>
  model.requests
    .map((r) => r.view?.messagesText ?? "")
    .filter((text) => text.includes(`RECALL-${agent}`));

const checkRecalled = async (agent: string, runId: string) => {
  const run = await runEnded(() => caller().runs.get({ id: runId }), `run ${runId}`, 300_000);
  const recall = run.steps.find((x) => x.stateName === "recall")!;
  expect(run.status, describeRun(run)).toBe("succeeded");
  expect(recall.output).toContain(word(agent));
  // What the run page labels the step with.
  expect(recall.agentRequest).toMatchObject({ continueFrom: "seed" });
  // The recall's request carried the seed's turns: its prompt with the word, and its answer.
  const asked = recallRequests(agent);
  expect(asked.length).toBeGreaterThan(0);
  expect(asked.some((t) => t.includes(`SEED-${agent}`) && t.includes(`ACK-${agent} stored`))).toBe(
    true,
  );
  // Both steps' sessions are kept sealed with the run: no word, no session id in the clear.
  const kept = await stack.db.agentSession.findMany({ where: { runId } });
  expect(kept.length).toBe(2);
  for (const session of kept) {
    const bytes = Buffer.from(session.sealed).toString("latin1");
    expect(bytes).not.toContain(word(agent));
    expect(bytes).not.toContain(`SEED-${agent}`);
    if (session.sessionId) expect(bytes).not.toContain(session.sessionId);
  }
  const { seed, recall: recalled } = await conversationsOf(runId);
  expect(seed).toMatchObject({ total_turns: 2 });
  expect(recalled).toMatchObject({ total_turns: 4, continued_from: "seed" });
  expect(recalled!.turns.at(-1)!.content).toContain(word(agent));
  return { run, seed: seed!, recall: recalled! };
};

describe.each(CLI_ROWS.map((row) => [row.agent, row] as const))(
  "%s resumes the seed step's session",
  (agent, row) => {
    it.skipIf(!located[agent])(
      "answers the recall from the resumed CLI session",
      async () => {
        const id = await start(`sessions-${agent}`, seedAndRecall(agent));
        const { seed, recall } = await checkRecalled(agent, id);
        expect(seed.session_id).toMatch(row.sessionId);
        expect(recall.session_id).toMatch(row.sessionId);
        expect(recall.provider).toBe(agent);
      },
      600_000,
    );
  },
);

describe("openai_compatible", () => {
  it("continues from the stored messages, sealed, removed with the run", async () => {
    const id = await start("sessions-openai", seedAndRecall("openai"));
    const { seed, recall } = await checkRecalled("openai", id);
    expect(seed.session_id).toBe("");
    expect(recall.turns.map((t) => t.role)).toEqual(["user", "assistant", "user", "assistant"]);
    // The key is a secret: nothing of it in the recorded turns.
    expect(JSON.stringify(recall)).not.toContain(KEY);
    await stack.db.run.delete({ where: { id } });
    expect(await stack.db.agentSession.count({ where: { runId: id } })).toBe(0);
  }, 120_000);

  it("fails a continue_from whose step has not run, or ran without session tracking, with AWF's text", async () => {
    const forward = await start(
      "sessions-forward",
      `name: sessions-forward
states:
  initial: recall
${agentState("openai", "recall", "RECALL-openai what was it?", "    conversation:\n      continue_from: seed\n", "seed")}${agentState("openai", "seed", "SEED-openai remember", "    conversation: {}\n", "done")}  done:
    type: terminal
    status: success
`,
    );
    const untracked = await start(
      "sessions-untracked",
      `name: sessions-untracked
states:
  initial: seed
${agentState("openai", "seed", "SEED-openai remember", "", "recall")}${agentState("openai", "recall", "RECALL-openai what was it?", "    conversation:\n      continue_from: seed\n", "done")}  done:
    type: terminal
    status: success
`,
    );
    for (const id of [forward, untracked]) {
      const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000);
      expect(run.status, describeRun(run)).toBe("failed");
      expect(run.errorMessage).toContain(
        'continue_from: step "seed" has no session ID or conversation history to resume',
      );
      expect(run.errorMessage).toContain("EXECUTION.CONTINUE_FROM.NO_SESSION");
    }
  }, 120_000);

  it("continues the session and its workspace on a new worker after the first one is killed", async () => {
    const pause = `  pause:
    type: step
    command: sleep 6
    on_success: recall
`;
    // The seed writes notes.txt; the recall, on another worker, reads it in the resumed session.
    const yaml = `name: sessions-killed
states:
  initial: seed
${agentState("openai", "seed", '"SEEDWS-openai write the notes"', "    conversation: {}\n", "pause")}${pause}${agentState("openai", "recall", '"RECALLWS-openai what do the notes say?"', "    conversation:\n      continue_from: seed\n", "done")}  done:
    type: terminal
    status: success
`;
    const id = await start("sessions-killed", yaml);
    await waitFor(
      async () => {
        const run = await caller().runs.get({ id });
        return run.steps.some((x) => x.stateName === "pause" && x.status === "running")
          ? true
          : undefined;
      },
      60_000,
      "the pause step to run",
    );
    stack.worker.child.kill("SIGKILL");
    await new Promise((resolve) => stack.worker.child.once("exit", resolve));
    stack.worker = await startWorker({
      DATABASE_URL: stack.database.url,
      SWITCHYARD_QUEUE_PREFIX: stack.prefix,
      ...workerEnv,
    });
    const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000);
    expect(run.status, describeRun(run)).toBe("succeeded");
    expect(run.steps.filter((x) => x.stateName === "seed")).toHaveLength(1);
    // The new worker's workspace has the seed's file: the recall read it...
    expect(run.steps.find((x) => x.stateName === "recall")!.output).toContain("FILEWORD-77");
    // ...in the seed's session: its request carried the seed's turns.
    const asked = model.requests
      .map((r) => r.view?.messagesText ?? "")
      .filter((text) => text.includes("RECALLWS-openai"));
    expect(asked.length).toBeGreaterThan(0);
    expect(
      asked.every((t) => t.includes("SEEDWS-openai") && t.includes("ACKWS-openai stored")),
    ).toBe(true);
    // The seed's workspace is kept with its session, and goes with the run.
    const kept = await stack.db.agentSession.findMany({ where: { runId: id } });
    expect(kept.find((k) => k.stepKey.endsWith("> seed"))?.snapshotId).toBeTruthy();
    await stack.db.run.delete({ where: { id } });
    expect(await stack.db.workspaceSnapshot.count({ where: { runId: id } })).toBe(0);
  }, 180_000);
});
