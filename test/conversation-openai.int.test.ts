/**
 * `mode: conversation` through the real worker with an openai_compatible step against the
 * scripted model: each reply opens a `message` wait and parks the run (no worker, no
 * process); a person's message (tRPC or REST) queues it again and the next model request
 * carries the whole history with the message; `exit` ends the step with the last reply as
 * its output. Only the run's starter may send a message: another member (tRPC and REST) or a
 * viewer is refused (403, USER.WAIT.NOT_ALLOWED), another team does not see the wait (404). A team secret in a message is stored and
 * sent as [REDACTED]. Each turn's tool calls are the attempt's.
 */
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import {
  createApiToken,
  createTeamWithOwner,
  listStepToolCalls,
  saveWorkflowVersion,
} from "@switchyard/db";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { restCaller } from "./helpers/rest-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { addMember } from "./helpers/team-member";
import { buildSwitchyardCli, processesOfRun, startWorker, waitFor } from "./helpers/worker-process";

const KEY = "sk-model-key-chat-4d2a";
let stack: RunStack;
let model: ScriptedModel;
let workerEnv: Record<string, string>;
/**
 * One worker id for the worker and the one started after it is killed: a worker that boots
 * under the id of a dead one takes its runs back at once, instead of after the job lock runs
 * out and the stall check comes round (over a minute on a loaded machine).
 */
const WORKER_ID = `test-chat-${Math.random().toString(36).slice(2, 8)}`;
const keyring = environmentKeyring();
const caller = (userId = stack.adminId, teamId?: string) =>
  dashboardCaller({ ...stack, keyring }, userId, teamId);

beforeAll(async () => {
  buildSwitchyardCli();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        // Slow enough that the worker is killed while the turn waits for it.
        { match: { messagesContain: "SLOW-MSG" }, times: 2, text: "slow reply", delayMs: 6_000 },
        { match: { messagesContain: "KILL-A" }, times: 1, text: "kill reply one" },
        { match: { messagesContain: "END-A" }, times: 1, text: "end reply one" },
        { match: { messagesContain: "END-A" }, times: 1, text: "end started over" },
        { match: { messagesContain: "THIRD-MSG" }, times: 1, text: "reply three" },
        { match: { messagesContain: "SECOND-MSG" }, times: 1, text: "reply two" },
        {
          match: { messagesContain: "CHAT-A" },
          times: 1,
          toolCalls: [{ name: "Write", arguments: { path: "notes/one.txt", content: "one\n" } }],
        },
        { match: { messagesContain: "CHAT-A" }, times: 1, text: `reply one ${KEY}` },
      ],
    },
  });
  workerEnv = {
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_JOB_LOCK_MS: "10000",
    SWITCHYARD_WORKER_ID: WORKER_ID,
  };
  stack = await openRunStack(workerEnv);
  await caller().variables.set({ name: "MODEL_KEY", value: KEY, secret: true, lanes: ["default"] });
}, 300_000);
afterAll(async () => {
  await closeRunStack(stack);
  await model?.close();
});

const workflow = `name: chat
states:
  initial: chat
  chat:
    type: agent
    provider: openai_compatible
    mode: conversation
    system_prompt: You are a concise assistant.
    prompt: CHAT-A tell me about channels
    options:
      base_url: ${"${MODEL}"}/v1
      model: scripted-1
      api_key: "{{.env.MODEL_KEY}}"
    timeout: 10m
    on_success: report
  report:
    type: step
    command: "echo {{.states.chat.Conversation.StoppedBy}} {{.states.chat.conversation.total_turns}}"
    on_success: done
  done:
    type: terminal
    status: success
`;

/** The run, once it waits for a person on a new open wait (and holds no worker). */
const parkedOn = async (runId: string, not: string[]) => {
  const wait = await waitFor(
    async () =>
      (await stack.db.wait.findFirst({
        where: { runId, status: "open", parked: true, id: { notIn: not } },
      })) ?? undefined,
    90_000,
    `run ${runId} to park on a new wait`,
  );
  const run = await stack.db.run.findUniqueOrThrow({ where: { id: runId } });
  expect(run.status).toBe("waiting");
  expect(run.workerId).toBeNull();
  await waitFor(
    async () => (processesOfRun(runId).length === 0 ? true : undefined),
    10_000,
    "no process of the run",
  );
  return wait;
};

/** A run of the chat workflow with another prompt. */
const startChat = async (name: string, prompt: string) => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name,
    files: {
      "workflow.yaml": workflow
        .replace("${MODEL}", model.url)
        .replace("CHAT-A tell me about channels", prompt),
    },
  });
  return (await caller().runs.start({ workflowId })).id;
};

const killWorker = async () => {
  stack.worker.child.kill("SIGKILL");
  await new Promise((resolve) => stack.worker.child.once("exit", resolve));
};

/** A new worker under the killed one's id (WORKER_ID). */
const restartWorker = async () => {
  stack.worker = await startWorker({
    DATABASE_URL: stack.database.url,
    SWITCHYARD_QUEUE_PREFIX: stack.prefix,
    ...workerEnv,
  });
};

const chatRequests = () =>
  model.requests
    .map((r) => r.body as { messages?: { role: string; content: string | null }[] })
    .filter((b) => JSON.stringify(b.messages ?? []).includes("CHAT-A"));

it("chats over three turns, parking between them, and ends on exit with the last reply", async () => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name: "chat",
    files: { "workflow.yaml": workflow.replace("${MODEL}", model.url) },
  });
  const { id } = await caller().runs.start({ workflowId });

  const first = await parkedOn(id, []);
  expect(first).toMatchObject({ kind: "message", question: "Conversation: chat" });
  expect(first.detail).toMatchObject({
    state: "chat",
    turn: 1,
    reply: "reply one [REDACTED]",
    prompt: "CHAT-A tell me about channels",
  });
  // The attempt waits with the run; the turn's tool call is the attempt's.
  const waiting = await caller().runs.get({ id });
  const step = waiting.steps.find((s) => s.stateName === "chat")!;
  expect(step.status).toBe("waiting");
  expect((await listStepToolCalls(stack.db, stack.teamId, step.id)).map((c) => c.toolName)).toEqual(
    ["Write"],
  );

  // Who may answer: the starter only. A viewer is refused, and so is another member who may
  // answer approvals (the chat is not theirs); another team does not see the wait.
  const [viewer, member] = await Promise.all(
    (["viewer", "member"] as const).map((role) =>
      addMember(stack.db, stack.teamId, { email: `${role}@test.local`, name: role, role }),
    ),
  );
  for (const [who, refusal] of [
    [viewer!, /role member or above/],
    [member!, /only the person who started the run/],
  ] as const) {
    const error = await caller(who)
      .waits.answer({ id: first.id, message: "hi" })
      .then(
        () => undefined,
        (e: unknown) => e as { code?: string; message?: string },
      );
    expect(error?.code).toBe("FORBIDDEN");
    expect(error?.message).toMatch(refusal);
  }
  const { token: memberToken } = await createApiToken(stack.db, {
    teamId: stack.teamId,
    userId: member!,
    name: "member bot",
  });
  const refused = await restCaller({ ...stack, keyring }, () => memberToken)(
    "POST",
    `/waits/${first.id}/answer`,
    { body: { message: "hi" } },
  );
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ error: { code: "USER.WAIT.NOT_ALLOWED" } });
  const seen = await caller(member).waits.get({ id: first.id });
  expect([seen.mayAnswer, seen.answerers]).toEqual([
    false,
    expect.stringMatching(/^the run's starter/),
  ]);
  expect((await caller(member).waits.list({ mine: true })).waits).toEqual([]);
  const stranger = await stack.db.user.create({
    data: { email: "b@test.local", name: "Other team" },
  });
  const teamB = (await createTeamWithOwner(stack.db, { name: "B", ownerId: stranger.id })).id;
  await expect(
    caller(stranger.id, teamB).waits.answer({ id: first.id, message: "hi" }),
  ).rejects.toMatchObject({ code: "NOT_FOUND" });
  // An approval's answer does not fit a conversation.
  await expect(caller().waits.answer({ id: first.id, decision: "approve" })).rejects.toMatchObject({
    code: "BAD_REQUEST",
  });

  // Turn 2 over tRPC, turn 3 over REST with an API token.
  // A secret pasted into a message is scrubbed before it is stored or reaches the agent.
  await caller().waits.answer({ id: first.id, message: `SECOND-MSG go on ${KEY}` });
  expect((await stack.db.wait.findUniqueOrThrow({ where: { id: first.id } })).answer).toEqual({
    message: "SECOND-MSG go on [REDACTED]",
  });
  const second = await parkedOn(id, [first.id]);
  expect(second.detail).toMatchObject({ turn: 2, reply: "reply two" });
  const { token } = await createApiToken(stack.db, {
    teamId: stack.teamId,
    userId: stack.adminId,
    name: "chat bot",
  });
  const rest = restCaller({ ...stack, keyring }, () => token);
  const sent = await rest("POST", `/waits/${second.id}/answer`, {
    body: { message: "THIRD-MSG and more" },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const third = await parkedOn(id, [first.id, second.id]);
  expect(third.detail).toMatchObject({ turn: 3, reply: "reply three" });

  // The later requests carry the history: the first prompt, the replies, the person's messages.
  const requests = chatRequests();
  const last = requests[requests.length - 1]!.messages!;
  expect(last.map((m) => [m.role, m.content])).toEqual([
    ["system", "You are a concise assistant."],
    ["user", "CHAT-A tell me about channels"],
    ["assistant", null],
    ["tool", expect.any(String)],
    ["assistant", "reply one [REDACTED]"],
    ["user", "SECOND-MSG go on [REDACTED]"],
    ["assistant", "reply two"],
    ["user", "THIRD-MSG and more"],
  ]);

  await caller().waits.answer({ id: third.id, message: "  EXIT " });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 90_000);
  expect(run.status, JSON.stringify(run.steps.map((s) => [s.status, s.errorMessage]))).toBe(
    "succeeded",
  );
  const chat = run.steps.filter((s) => s.stateName === "chat");
  // One attempt, continued over every turn.
  expect(chat.map((s) => [s.id, s.status])).toEqual([[step.id, "succeeded"]]);
  expect(chat[0]!.output).toBe("reply three");
  // AWF's state.conversation: kept in the state (a later step reads it) and on the attempt.
  const said = [
    ["user", "CHAT-A tell me about channels"],
    ["assistant", "reply one [REDACTED]"],
    ["user", "SECOND-MSG go on [REDACTED]"],
    ["assistant", "reply two"],
    ["user", "THIRD-MSG and more"],
    ["assistant", "reply three"],
  ];
  const conversation = chat[0]!.conversation!;
  expect(conversation).toMatchObject({
    session_id: "",
    total_turns: 6,
    stopped_by: "user_exit",
    provider: "openai_compatible",
  });
  expect(conversation.total_tokens).toBeGreaterThan(0);
  expect(conversation.turns.map((t) => [t.role, t.content])).toEqual(said);
  const checkpoint = (await stack.db.run.findUniqueOrThrow({ where: { id } })).checkpoint as {
    results: Record<string, { conversation?: unknown }>;
  };
  expect(checkpoint.results.chat?.conversation).toEqual(conversation);
  expect(run.steps.find((s) => s.stateName === "report")?.output.trim()).toBe("user_exit 6");
  // No session stays behind, and no further model request was made after exit.
  expect(await stack.db.agentSession.count({ where: { runId: id } })).toBe(0);
  expect(chatRequests()).toHaveLength(requests.length);
}, 300_000);

it("goes on with the person's message on a new worker when the worker is killed during a turn", async () => {
  const id = await startChat("chat-killed", "KILL-A start");
  const first = await parkedOn(id, []);
  await caller().waits.answer({ id: first.id, message: "SLOW-MSG carry on" });
  const slow = () =>
    model.requests.filter((r) => JSON.stringify(r.body).includes("SLOW-MSG")).length;
  await waitFor(async () => (slow() > 0 ? true : undefined), 60_000, "the second turn to ask");
  // Killed mid-turn: the session the turn began from must still be there for the next worker.
  await killWorker();
  expect(await stack.db.agentSession.count({ where: { runId: id } })).toBe(1);
  await restartWorker();
  const second = await parkedOn(id, [first.id]);
  expect(second.detail).toMatchObject({ turn: 2, reply: "slow reply" });
  // The turn ran again from the first reply and the message, not from the prompt alone.
  const retried = model.requests
    .map((r) => r.body as { messages?: { role: string; content: string | null }[] })
    .filter((b) => JSON.stringify(b.messages ?? []).includes("KILL-A"));
  expect(retried.at(-1)!.messages!.map((m) => m.content)).toEqual([
    "You are a concise assistant.",
    "KILL-A start",
    "kill reply one",
    "SLOW-MSG carry on",
  ]);
  expect(await stack.db.agentSession.count({ where: { runId: id } })).toBe(1);
  await caller().waits.answer({ id: second.id, message: "quit" });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 90_000);
  expect(run.status).toBe("succeeded");
  // The killed worker's attempt row ended; the attempt that went on holds the conversation.
  const chat = run.steps.filter((s) => s.stateName === "chat").at(-1)!;
  expect(chat.status).toBe("succeeded");
  expect(chat.conversation?.turns.map((t) => t.content)).toEqual([
    "KILL-A start",
    "kill reply one",
    "SLOW-MSG carry on",
    "slow reply",
  ]);
}, 300_000);

it("ends on a new worker when the worker is killed while it stores the step's end after exit", async () => {
  const id = await startChat("chat-end-killed", "END-A start");
  const first = await parkedOn(id, []);
  // The chat's end is stored by an update of its attempt's row: this test's database makes
  // that update wait for a lock the test holds, so the worker is killed exactly there.
  const LOCK = 73_411;
  const admin = new pg.Client({ connectionString: stack.database.url });
  await admin.connect();
  try {
    await admin.query(`CREATE FUNCTION test_hold_chat_end() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_xact_lock(${LOCK}); RETURN NEW; END $$`);
    await admin.query(`CREATE TRIGGER test_hold_chat_end BEFORE UPDATE ON "StepRun" FOR EACH ROW
      WHEN (NEW.status = 'succeeded' AND NEW."runId" = '${id}' AND NEW."stateName" = 'chat')
      EXECUTE FUNCTION test_hold_chat_end()`);
    await admin.query(`SELECT pg_advisory_lock(${LOCK})`);
    await caller().waits.answer({ id: first.id, message: "exit" });
    const held = async () =>
      (
        await admin.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE wait_event = 'advisory' AND pid <> pg_backend_pid()`,
        )
      ).rows;
    await waitFor(
      async () => ((await held()).length > 0 ? true : undefined),
      60_000,
      "the chat's end to be stored",
    );
    await killWorker();
    // The dead worker's statement goes with its connection, as it would had it not waited.
    for (const { pid } of await held()) await admin.query(`SELECT pg_terminate_backend($1)`, [pid]);
    await admin.query(`SELECT pg_advisory_unlock(${LOCK})`);
    await restartWorker();
    // The next worker ends the chat from the person's exit: it does not start it over.
    const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 90_000);
    expect(run.status).toBe("succeeded");
    const chat = run.steps.filter((s) => s.stateName === "chat").at(-1)!;
    expect([chat.status, chat.output, chat.conversation?.stopped_by]).toEqual([
      "succeeded",
      "end reply one",
      "user_exit",
    ]);
    expect(chat.conversation?.turns.map((t) => t.content)).toEqual([
      "END-A start",
      "end reply one",
    ]);
    expect(await stack.db.wait.count({ where: { runId: id } })).toBe(1);
    expect(await stack.db.agentSession.count({ where: { runId: id } })).toBe(0);
    expect(model.requests.filter((r) => JSON.stringify(r.body).includes("END-A"))).toHaveLength(1);
  } finally {
    await admin.query(`DROP TRIGGER IF EXISTS test_hold_chat_end ON "StepRun"`);
    await admin.end();
  }
}, 300_000);
