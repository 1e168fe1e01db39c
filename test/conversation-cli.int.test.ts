/**
 * `mode: conversation` with each agent CLI under the real worker against the scripted model:
 * each turn's reply parks the run with the CLI's own session sealed with it; the person's
 * message resumes that session (`claude --resume`, `codex exec resume`, `gemini --resume`,
 * `opencode run --session`) in a new sandbox, so the next model request carries the earlier
 * turns; `exit` ends the step with the last reply. Claude Code chats over three turns, Codex,
 * Gemini CLI and OpenCode over two, all four at once (one worker runs their runs side by
 * side). The variations (who may answer, REST, history order) are on openai_compatible
 * (conversation-openai.int.test.ts).
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
import { buildSwitchyardCli, processesOfRun, waitFor } from "./helpers/worker-process";

const row = CLI_ROWS.find((r) => r.agent === "claude")!;
const located = installedAgent(row.agent, (line) => console.log(`[conversation-cli] ${line}`));
/** The other CLIs, each chatting in a run of its own while the others do. */
const others = CLI_ROWS.filter((r) => r.agent !== "claude").map((r) => ({
  row: r,
  located: installedAgent(r.agent, (line) => console.log(`[conversation-cli ${r.agent}] ${line}`)),
}));
let stack: RunStack | undefined;
let model: ScriptedModel | undefined;
const keyring = environmentKeyring();
const caller = () => dashboardCaller({ ...stack!, keyring }, stack!.adminId);

beforeAll(async () => {
  if (!located && others.every((o) => !o.located)) return;
  buildSwitchyardCli();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        { match: { messagesContain: "THIRD-MSG" }, text: "claude reply three" },
        { match: { messagesContain: "SECOND-MSG" }, text: "claude reply two" },
        { match: { messagesContain: "CHAT-C" }, text: "claude reply one" },
        ...others.flatMap(({ row: r }) => [
          { match: { messagesContain: `SECOND-${r.agent}` }, text: `${r.agent} reply two` },
          { match: { messagesContain: `CHAT-${r.agent}` }, text: `${r.agent} reply one` },
        ]),
      ],
    },
  });
  stack = await openRunStack({
    SWITCHYARD_AGENTS_DIR: AGENTS_DIR,
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
  });
  for (const { agent } of CLI_ROWS) {
    const vendor = CLI_PROVIDERS[agent]!.cli.vendor;
    await caller().models.set({
      vendor,
      endpoint: vendor === "openai" ? `${model.url}/v1` : model.url,
      apiKey: `sk-chat-${agent}-5e61a9d0`,
    });
  }
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

type Row = (typeof CLI_ROWS)[number];

/** A run of a one-state chat with the CLI of `r`. */
const startChat = async (r: Row, prompt: string) => {
  const { workflowId } = await saveWorkflowVersion(stack!.db, {
    teamId: stack!.teamId,
    name: `chat-${r.agent}`,
    files: {
      "workflow.yaml": `name: chat-${r.agent}
states:
  initial: chat
  chat:
    type: agent
    provider: ${r.agent}
    mode: conversation
    prompt: ${prompt}
    options:
      model: ${r.model}
    timeout: 4m
    on_success: done
  done:
    type: terminal
    status: success
`,
    },
  });
  return (await caller().runs.start({ workflowId })).id;
};

/** The first reply parks the run with the CLI's own session stored. */
const firstTurn = async (r: Row, runId: string, reply: string) => {
  const first = await parkedOn(runId, []);
  expect(first.detail).toMatchObject({ turn: 1, reply });
  const session = await stack!.db.agentSession.findFirstOrThrow({ where: { runId } });
  expect(session).toMatchObject({ provider: r.agent, waitId: first.id });
  expect(session.sessionId).toMatch(r.sessionId);
  return { first, session };
};

/** The person ends the chat: the step succeeds with the last reply, every turn in its record. */
const endChat = async (
  r: Row,
  runId: string,
  waitId: string,
  message: string,
  sessionId: string | null,
  said: string[],
) => {
  await caller().waits.answer({ id: waitId, message });
  const run = await runEnded(() => caller().runs.get({ id: runId }), `run ${runId}`, 120_000);
  expect(
    run.status,
    JSON.stringify(run.steps.map((x) => [x.status, x.errorCode, x.errorMessage])),
  ).toBe("succeeded");
  const chat = run.steps.filter((x) => x.stateName === "chat");
  expect(chat.map((x) => x.output)).toEqual([said.at(-1)]);
  expect(chat[0]!.conversation).toMatchObject({
    session_id: sessionId,
    total_turns: said.length,
    stopped_by: "user_exit",
    provider: r.agent,
  });
  expect(chat[0]!.conversation!.turns.map((t) => t.content)).toEqual(said);
};

// The CLIs chat at once, each in a run of its own: one worker runs them side by side.
describe.concurrent("each CLI", () => {
  it.skipIf(!located)(
    "resumes Claude Code's own session for each message and ends on exit",
    async () => {
      const id = await startChat(row, "CHAT-C hello");
      const { first, session } = await firstTurn(row, id, "claude reply one");

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

      // AWF's state.conversation names the CLI's own session and every turn.
      await endChat(row, id, third.id, "quit", session.sessionId, [
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

  for (const { row: r, located: here } of others)
    it.skipIf(!here)(
      `resumes ${r.agent}'s own session for a message and ends on exit`,
      async () => {
        const id = await startChat(r, `CHAT-${r.agent} hello`);
        const { first, session } = await firstTurn(r, id, `${r.agent} reply one`);

        await caller().waits.answer({ id: first.id, message: `SECOND-${r.agent} more please` });
        const second = await parkedOn(id, [first.id]);
        expect(second.detail).toMatchObject({ turn: 2, reply: `${r.agent} reply two` });
        // The resumed session's request carries the first turn with the person's message.
        const asked = model!.requests.map((q) => JSON.stringify(q.body));
        const last = asked.filter((b) => b.includes(`SECOND-${r.agent}`)).pop()!;
        for (const said of [`CHAT-${r.agent} hello`, `${r.agent} reply one`])
          expect(last).toContain(said);

        await endChat(r, id, second.id, "exit", session.sessionId, [
          `CHAT-${r.agent} hello`,
          `${r.agent} reply one`,
          `SECOND-${r.agent} more please`,
          `${r.agent} reply two`,
        ]);
      },
      900_000,
    );
});
