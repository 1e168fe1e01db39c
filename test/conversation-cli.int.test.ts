/**
 * `mode: conversation` with Claude Code under the real worker against the scripted model:
 * each turn's reply parks the run with the CLI's own session sealed with it; the person's
 * message resumes that session (`claude --resume`) in a new sandbox, so the next model
 * request carries the earlier turns; `exit` ends the step with the last reply. The
 * variations (who may answer, REST, history order) are on openai_compatible
 * (conversation-openai.int.test.ts).
 */
import { CLI_PROVIDERS } from "@switchyard/core/providers";
import { saveWorkflowVersion } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { CLI_ROWS } from "@switchyard/testing/agents";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, expect, it } from "vitest";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, processesOfRun, waitFor } from "./helpers/worker-process";

const row = CLI_ROWS.find((r) => r.agent === "claude")!;
const located = installedAgent(row.agent, (line) => console.log(`[conversation-cli] ${line}`));
let stack: RunStack | undefined;
let model: ScriptedModel | undefined;
const keyring = environmentKeyring();
const caller = () => dashboardCaller({ ...stack!, keyring }, stack!.adminId);

beforeAll(async () => {
  if (!located) return;
  buildSwitchyardCli();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        { match: { messagesContain: "THIRD-MSG" }, text: "claude reply three" },
        { match: { messagesContain: "SECOND-MSG" }, text: "claude reply two" },
        { match: { messagesContain: "CHAT-C" }, text: "claude reply one" },
      ],
    },
  });
  stack = await openRunStack({
    SWITCHYARD_AGENTS_DIR: AGENTS_DIR,
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
  });
  await caller().models.set({
    vendor: CLI_PROVIDERS.claude!.cli.vendor,
    endpoint: model.url,
    apiKey: "sk-chat-claude-5e61a9d0",
  });
}, 900_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await model?.close();
});

const parkedOn = async (runId: string, not: string[]) => {
  const wait = await waitFor(
    async () => {
      const run = await stack!.db.run.findUniqueOrThrow({ where: { id: runId } });
      if (!["queued", "running", "waiting"].includes(run.status))
        throw new Error(`run ended: ${run.status} ${run.errorCode} ${run.errorMessage}`);
      const open = await stack!.db.wait.findFirst({
        where: { runId, status: "open", parked: true, id: { notIn: not } },
      });
      return open && run.status === "waiting" ? open : undefined;
    },
    240_000,
    `run ${runId} to park`,
  );
  await waitFor(
    async () => (processesOfRun(runId).length === 0 ? true : undefined),
    15_000,
    "no process of the waiting run",
  );
  return wait;
};

it.skipIf(!located)(
  "resumes Claude Code's own session for each message and ends on exit",
  async () => {
    const s = stack!;
    const { workflowId } = await saveWorkflowVersion(s.db, {
      teamId: s.teamId,
      name: "chat-claude",
      files: {
        "workflow.yaml": `name: chat-claude
states:
  initial: chat
  chat:
    type: agent
    provider: claude
    mode: conversation
    prompt: CHAT-C hello
    options:
      model: ${row.model}
    timeout: 4m
    on_success: done
  done:
    type: terminal
    status: success
`,
      },
    });
    const { id } = await caller().runs.start({ workflowId });
    const first = await parkedOn(id, []);
    expect(first.detail).toMatchObject({ turn: 1, reply: "claude reply one" });
    const session = await s.db.agentSession.findFirstOrThrow({ where: { runId: id } });
    expect(session).toMatchObject({ provider: "claude", waitId: first.id });
    expect(session.sessionId).toMatch(row.sessionId);

    await caller().waits.answer({ id: first.id, message: "SECOND-MSG more please" });
    const second = await parkedOn(id, [first.id]);
    expect(second.detail).toMatchObject({ turn: 2, reply: "claude reply two" });
    await caller().waits.answer({ id: second.id, message: "THIRD-MSG and then" });
    const third = await parkedOn(id, [first.id, second.id]);
    expect(third.detail).toMatchObject({ turn: 3, reply: "claude reply three" });

    // The resumed session's requests carry the earlier turns and the person's messages.
    const asked = model!.requests.map((r) => JSON.stringify(r.body));
    const last = asked.filter((b) => b.includes("THIRD-MSG")).pop()!;
    for (const said of ["CHAT-C hello", "claude reply one", "SECOND-MSG", "claude reply two"])
      expect(last).toContain(said);

    await caller().waits.answer({ id: third.id, message: "quit" });
    const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000);
    expect(
      run.status,
      JSON.stringify(run.steps.map((x) => [x.status, x.errorCode, x.errorMessage])),
    ).toBe("succeeded");
    const chat = run.steps.filter((x) => x.stateName === "chat");
    expect(chat).toHaveLength(1);
    expect(chat[0]!.output).toBe("claude reply three");
    // AWF's state.conversation names the CLI's own session and every turn.
    expect(chat[0]!.conversation).toMatchObject({
      session_id: session.sessionId,
      total_turns: 6,
      stopped_by: "user_exit",
      provider: "claude",
    });
    expect(chat[0]!.conversation!.turns.map((t) => t.content)).toEqual([
      "CHAT-C hello",
      "claude reply one",
      "SECOND-MSG more please",
      "claude reply two",
      "THIRD-MSG and then",
      "claude reply three",
    ]);
  },
  900_000,
);
