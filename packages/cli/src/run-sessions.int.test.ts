/**
 * AWF's sessions with `switchyard run`, as a person on a laptop: uid 65534 (when the suite is
 * root) with a HOME of its own, through the real bin, against the scripted model.
 * - `conversation: {}` then `conversation: {continue_from: seed}`: the recall's model request
 *   carries the seed's turns (openai_compatible sends its kept messages; Claude Code resumes
 *   its own session from its files), and `state.conversation` reaches a later step.
 * - `mode: conversation` at a real pseudo-terminal (python3's pty module): each reply printed,
 *   the person's messages typed after `> ` go to the model with the turns before them, and
 *   `exit` ends the chat, stopped by `user_exit`; Ctrl+C there cancels the run. With stdin a
 *   pipe its end ends the chat after the first reply, as AWF does.
 */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import {
  agentsDirOf,
  CLI_ROWS,
  installedAgent,
  PROVIDER_ROWS,
  type ProviderRow,
} from "@switchyard/testing/agents";
import {
  openPersonCli,
  personFolder,
  runAsPerson,
  type PersonRun,
} from "@switchyard/testing/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VENDOR_ENV } from "../../core/src/providers/cli-providers";
import { stageTree } from "../../core/src/providers/step/stage-agent";

const AGENTS_DIR = agentsDirOf(process.env);
const KEY = "sk-laptop-sessions-7c1e04";
const word = (provider: string) => `WORD${provider.toUpperCase()}42`;

let base: string;
let bin: string;
let model: ScriptedModel;

beforeAll(async () => {
  ({ base, bin } = await openPersonCli("sy-run-sessions-"));
  await stageTree(AGENTS_DIR, path.join(base, "agents"));
  // The recall is answered from the session only: the seed's answer (ACK-...) is in the
  // request only when the earlier turns came with it. The chat's replies name what they got.
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        ...PROVIDER_ROWS.flatMap((row) => [
          {
            match: { messagesContain: `ACK-${row.provider}` },
            text: `the magic word is ${word(row.provider)}`,
          },
          {
            match: { messagesContain: `SEED-${row.provider}` },
            text: `ACK-${row.provider} stored`,
          },
          { match: { messagesContain: `RECALL-${row.provider}` }, text: "I was never told a word" },
        ]),
        { match: { messagesContain: "SECOND-MSG" }, text: "reply-three about the second" },
        { match: { messagesContain: "FIRST-MSG" }, text: "reply-two about the first" },
        { match: { messagesContain: "OPEN-CHAT" }, text: "reply-one: what next?" },
      ],
    },
  });
}, 300_000);
afterAll(async () => {
  await model?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

/** The person's variables for the row's vendor (its key and endpoint); OPENAI_API_KEY for openai_compatible. */
const personEnv = (row: ProviderRow): Record<string, string> =>
  row.vendor
    ? {
        [VENDOR_ENV[row.vendor].key[0]!]: KEY,
        [VENDOR_ENV[row.vendor].baseUrl[0]!]: row.endpoint(model.url),
      }
    : { OPENAI_API_KEY: KEY };

/** `switchyard run <flow>` as the person, in a workspace of theirs. */
const runFlow = (
  name: string,
  yaml: string,
  env: Record<string, string>,
  how: PersonRun["how"],
) => {
  const flow = path.join(base, `${name}.yaml`);
  writeFileSync(flow, yaml, { mode: 0o644 });
  return runAsPerson({
    bin,
    args: ["run", flow],
    cwd: personFolder(path.join(base, `ws-${name}`)),
    env: {
      HOME: path.join(base, "home"),
      SWITCHYARD_AGENTS_DIR: path.join(base, "agents"),
      TERM: "dumb",
      ...env,
    },
    how,
    timeoutMs: 240_000,
  });
};

/** An agent state of the row's provider, with its extra lines. */
const agentState = (row: ProviderRow, name: string, prompt: string, extra: string, next: string) =>
  `  ${name}:
    type: agent
    provider: ${row.provider}
    prompt: ${JSON.stringify(prompt)}
${extra}    options:
      model: ${row.model}
${row.vendor ? "" : `      base_url: ${row.endpoint(model.url)}\n`}    timeout: 3m
    on_success: ${next}
`;

const seedAndRecall = (row: ProviderRow) => `name: sessions-${row.provider.replace(/_/g, "-")}
states:
  initial: seed
${agentState(row, "seed", `SEED-${row.provider} Remember this secret: the magic word is ${word(row.provider)}. Reply with exactly stored.`, "    conversation: {}\n", "recall")}${agentState(row, "recall", `RECALL-${row.provider} What was the magic word I told you to remember?`, "    conversation:\n      continue_from: seed\n", "show")}  show:
    type: step
    command: >-
      echo "recall-turns={{.states.recall.conversation.total_turns}}
      from={{.states.recall.conversation.continued_from}}
      seed-session={{.states.seed.conversation.session_id}}
      recall-session={{.states.recall.conversation.session_id}}"
    on_success: done
  done:
    type: terminal
    status: success
`;

const claude = CLI_ROWS.find((r) => r.agent === "claude")!;
const SESSION_ROWS = PROVIDER_ROWS.filter(
  (r) => r.provider === "openai_compatible" || r.provider === "claude",
);
const located = installedAgent(
  AGENTS_DIR,
  "claude",
  (line) => console.log(`[run-sessions] ${line}`),
  process.env,
);

describe.each(SESSION_ROWS)("continue_from with $provider", (row) => {
  it.skipIf(row.agent !== undefined && !located)(
    "resumes the seed's session in the recall",
    async () => {
      const r = await runFlow(`sessions-${row.provider}`, seedAndRecall(row), personEnv(row), {
        stdin: "",
      });
      expect(r.code, `${r.err}\n${JSON.stringify(model.failures)}`).toBe(0);
      expect(r.out).toContain(`the magic word is ${word(row.provider)}`);
      // The recall's request carried the seed's turns: its prompt with the word, and its answer.
      const asked = model.requests
        .map((q) => q.view?.messagesText ?? "")
        .filter((text) => text.includes(`RECALL-${row.provider}`));
      expect(asked.length).toBeGreaterThan(0);
      expect(
        asked.every(
          (t) => t.includes(`SEED-${row.provider}`) && t.includes(`ACK-${row.provider} stored`),
        ),
      ).toBe(true);
      expect(r.out).toContain("recall-turns=4 from=seed");
      const sessions = /seed-session=(\S*) recall-session=(\S*)/.exec(r.out);
      if (row.agent) {
        expect(sessions?.[1]).toMatch(claude.sessionId);
        expect(sessions?.[2]).toMatch(claude.sessionId);
      } else expect(sessions?.slice(1)).toEqual(["", ""]);
      expect(r.out + r.err).not.toContain(KEY);
    },
    240_000,
  );
});

const openai = PROVIDER_ROWS.find((r) => r.provider === "openai_compatible")!;
const chatFlow = () => `name: laptop-chat
states:
  initial: chat
${agentState(openai, "chat", "OPEN-CHAT tell me about channels", "    mode: conversation\n", "show")}  show:
    type: step
    command: echo "stopped={{.states.chat.conversation.stopped_by}} turns={{.states.chat.conversation.total_turns}}"
    on_success: done
  done:
    type: terminal
    status: success
`;

describe("mode: conversation", () => {
  it("chats at the terminal: replies printed, messages typed after > sent with the turns before, exit ends it", async () => {
    const before = model.requests.length;
    const r = await runFlow("chat-pty", chatFlow(), personEnv(openai), {
      script: [
        ["reply-one: what next?", ""],
        ["> ", "FIRST-MSG go on\r"],
        ["reply-two about the first", ""],
        ["> ", "SECOND-MSG and then\r"],
        ["reply-three about the second", ""],
        ["> ", "exit\r"],
      ],
    });
    expect(r.code, `${r.out}\n${JSON.stringify(model.failures)}`).toBe(0);
    const asked = model.requests.slice(before).map((q) => q.view?.messagesText ?? "");
    expect(asked).toHaveLength(3);
    expect(asked[1]).toMatch(/OPEN-CHAT[\s\S]*reply-one[\s\S]*FIRST-MSG go on/);
    expect(asked[2]).toMatch(
      /OPEN-CHAT[\s\S]*reply-one[\s\S]*FIRST-MSG go on[\s\S]*reply-two[\s\S]*SECOND-MSG and then/,
    );
    expect(asked.join("\n")).not.toContain("exit");
    // Each reply printed once, in order; the last one is not printed again as the step's output.
    expect(r.out).toMatch(/reply-one[\s\S]*reply-two[\s\S]*reply-three/);
    expect(r.out.split("reply-three about the second")).toHaveLength(2);
    expect(r.out).toContain("stopped=user_exit turns=6");
  }, 120_000);

  it("cancels the run on Ctrl+C at the > prompt, as anywhere else in the run", async () => {
    const before = model.requests.length;
    const r = await runFlow("chat-cancel", chatFlow(), personEnv(openai), {
      script: [
        ["reply-one: what next?", ""],
        ["> ", "\x03"],
      ],
    });
    expect(r.out).toContain("● cancelled");
    expect(r.out).not.toContain("stopped=");
    expect(r.code).not.toBe(0);
    expect(model.requests.length - before).toBe(1);
  }, 120_000);

  it("ends after the first reply when piped stdin ends, as AWF does", async () => {
    const before = model.requests.length;
    const r = await runFlow("chat-pipe", chatFlow(), personEnv(openai), { stdin: "" });
    expect(r.code, r.err).toBe(0);
    expect(model.requests.length - before).toBe(1);
    expect(r.out).toContain("reply-one: what next?");
    expect(r.out).toContain("stopped=user_exit turns=2");
  }, 120_000);
});
