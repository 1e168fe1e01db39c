/**
 * A suspended agent CLI step resumed in a fresh sandbox, one row per CLI, each the real
 * pinned CLI run by runCliStep as the worker runs it (step sandbox with its own uid as root,
 * staged CLI, model gateway, the step's `switchyard mcp-serve`) against the scripted model.
 * Attempt 1: the model asks for a slow proxy call (a Bash sleep, as a call held for a
 * person's approval would be); once it runs, the step is suspended: the CLI is stopped, no
 * error, and the result carries the CLI's session id and its session's files. Attempt 2, in a
 * new sandbox and a new private HOME: the files go back, the CLI resumes the session with a
 * new prompt, and the model's request carries the first prompt and the new one; the step
 * answers. A resume whose files are gone fails with EXECUTION.AGENT_CANNOT_RESUME. And each
 * CLI gives up on a slow proxy call at the step's tool timeout, not before.
 *
 * A CLI missing from the agents folder is installed on demand; only when that fails is its
 * row skipped, saying why.
 */
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import {
  agentsDirOf,
  CLI_ROWS,
  installedAgent,
  openCliStepKit,
  runKitStep,
  sleepMark,
  sleepRuns,
  waitFor,
  type CliStepKit,
  type KitStep,
} from "@switchyard/testing/agents";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { stepBaseUrl } from "../../gateway";
import { CLI_PROVIDERS } from "../cli-providers";

const FIRST = "FIRST-PROMPT-3e81: look at the build.";
const SECOND = "SECOND-PROMPT-9c04: the call was approved, go on.";
const ANSWER = "Resumed and done.";
/** What the slow call prints, which its command does not spell out (the request carries the command too). */
const SLOW_DONE = "SLOW-CALL-71-DONE";
const CASE_MS = 240_000;

describe.each(CLI_ROWS)("a suspended $agent step", (row) => {
  const say = (line: string) => console.log(`[cli-resume] ${line}`);
  const located = installedAgent(agentsDirOf(process.env), row.agent, say, process.env);
  const { cli: provider } = CLI_PROVIDERS[row.agent]!;
  let kit: CliStepKit;
  let model: ScriptedModel | undefined;

  beforeAll(async () => {
    if (located) kit = await openCliStepKit(`cli-resume-${row.agent}`, process.env);
  }, CASE_MS);
  afterAll(async () => {
    await kit?.close();
  });
  afterEach(async () => {
    await model?.close();
    model = undefined;
  });

  const step = async (more: Partial<KitStep>) =>
    runKitStep(kit, {
      provider,
      agent: await kit.stage(row.agent, located!.version),
      prompt: FIRST,
      options: { model: row.model },
      upstream: { baseUrl: stepBaseUrl(provider.vendor, model!.url), apiKey: "sk-team-resume" },
      ...more,
    });

  it.skipIf(!located)(
    "keeps its session when suspended mid-call and resumes it in a new sandbox with the next prompt",
    async () => {
      const sleep = `sleep ${sleepMark()}`;
      model = await startScriptedModel({
        script: {
          turns: [
            {
              label: "slow call",
              expect: { messagesContain: FIRST },
              toolCalls: [{ name: row.tool("Bash"), arguments: { command: sleep } }],
            },
            { label: "after resume", expect: { messagesContain: SECOND }, text: ANSWER },
          ],
        },
      });
      const suspend = new AbortController();
      let sessionReported = false;
      const first = step({
        suspend: suspend.signal,
        toolTimeoutMs: 600_000,
        reported: (e) => (sessionReported ||= e.type === "session"),
      });
      await waitFor("the slow call to run", () => sleepRuns({ sleep }), 90_000);
      // Suspended at once, as a call held for a person is: a CLI that prints its session id
      // after its first tool call began (OpenCode on a loaded machine) is stopped only once it
      // has, so there is a session to keep.
      const early = !sessionReported;
      suspend.abort();
      const r1 = await first;
      const why1 = JSON.stringify({
        early,
        ...r1,
        suspended: r1.suspended?.files.map((f) => f.path),
      });
      expect(r1.error, why1).toBeUndefined();
      expect(r1.suspended?.sessionId, why1).toMatch(row.sessionId);
      expect(r1.suspended!.files.length, why1).toBeGreaterThan(0);
      const kept = r1.suspended!.files.map((f) => Buffer.from(f.data, "base64").toString());
      expect(
        kept.some((text) => text.includes("FIRST-PROMPT-3e81")),
        why1,
      ).toBe(true);
      expect(model.requests).toHaveLength(1);

      const r2 = await step({ resume: { ...r1.suspended!, prompt: SECOND } });
      const why2 = JSON.stringify({ r2, failures: model.failures }, null, 1);
      expect(model.failures, why2).toEqual([]);
      expect(r2, why2).toMatchObject({ output: ANSWER, exitCode: 0 });
      expect(r2.error, why2).toBeUndefined();
      const resumed = JSON.stringify(model.requests.at(-1)!.body);
      expect(resumed).toContain("FIRST-PROMPT-3e81");
      expect(resumed).toContain("SECOND-PROMPT-9c04");
      // In order: the first prompt, the call the step was suspended in (Gemini CLI drops a
      // call that never finished from the session it resumes), the new prompt.
      expect(resumed.indexOf("FIRST-PROMPT-3e81")).toBeLessThan(
        resumed.indexOf("SECOND-PROMPT-9c04"),
      );
      if (row.agent === "gemini") expect(resumed).not.toContain(sleep);
      else {
        expect(resumed.indexOf("FIRST-PROMPT-3e81")).toBeLessThan(resumed.indexOf(sleep));
        expect(resumed.indexOf(sleep)).toBeLessThan(resumed.indexOf("SECOND-PROMPT-9c04"));
      }
    },
    CASE_MS,
  );

  // The suspension comes before the CLI has said anything (a call held at once, by a CLI that
  // names its session late): the CLI is stopped once it has named it, and the step keeps it.
  it.skipIf(!located)(
    "waits for the CLI to name its session before a suspension stops it",
    async () => {
      const sleep = `sleep ${sleepMark()}`;
      model = await startScriptedModel({
        script: {
          turns: [{ toolCalls: [{ name: row.tool("Bash"), arguments: { command: sleep } }] }],
        },
      });
      const suspend = new AbortController();
      suspend.abort();
      const r = await step({ suspend: suspend.signal, toolTimeoutMs: 600_000 });
      const why = JSON.stringify({ ...r, suspended: r.suspended?.files.map((f) => f.path) });
      // Stopped only once it had named its session: Gemini CLI and OpenCode have its files by
      // then and keep it; Claude Code and Codex name it before they write any (a suspension
      // from a held call comes after the model's first answer, when they have).
      expect(r.error ?? "", why).not.toContain("before its CLI reported a session id");
      const named =
        r.suspended?.sessionId ?? /of its session (\S+) to resume/.exec(r.error ?? "")?.[1];
      expect(named, why).toMatch(row.sessionId);
    },
    CASE_MS,
  );

  it.skipIf(!located)(
    "fails with EXECUTION.AGENT_CANNOT_RESUME when the session's files are not there",
    async () => {
      model = await startScriptedModel({ script: { turns: [{ text: ANSWER }] } });
      const r = await step({
        resume: {
          sessionId:
            row.agent === "opencode" ? "ses_0000000000000000000000000" : crypto.randomUUID(),
          files: [{ path: ".switchyard/unrelated.txt", mode: 0o600, data: "" }],
          prompt: SECOND,
        },
      });
      const why = JSON.stringify({ r, requests: model.requests.length }, null, 1);
      expect(r.errorCode, why).toBe("EXECUTION.AGENT_CANNOT_RESUME");
      expect(r.error, why).toContain("did not resume its session");
      expect(model.requests, why).toHaveLength(0);
    },
    CASE_MS,
  );

  // The CLI reads the step's tool timeout: a slow call's result reaches the model under a
  // timeout longer than the call, and does not under a shorter one (the CLI gave up first).
  it.skipIf(!located)(
    "gives up on a proxy call only after the step's tool timeout",
    async () => {
      const slow = {
        script: {
          turns: [
            {
              toolCalls: [
                {
                  name: row.tool("Bash"),
                  arguments: { command: "sleep 10; echo SLOW-CALL-$((60 + 11))-DONE" },
                },
              ],
            },
            { text: ANSWER },
          ],
        },
      };
      const lastRequest = () => JSON.stringify(model!.requests.at(-1)?.body ?? null);

      model = await startScriptedModel(slow);
      const longer = await step({ toolTimeoutMs: 30_000 });
      expect(longer, JSON.stringify(longer, null, 1)).toMatchObject({ output: ANSWER });
      expect(model.requests).toHaveLength(2);
      expect(lastRequest()).toContain(SLOW_DONE);
      await model.close();

      model = await startScriptedModel(slow);
      const shorter = await step({ toolTimeoutMs: 5_000 });
      const why = JSON.stringify(shorter, null, 1);
      expect(shorter, why).toMatchObject({ output: ANSWER });
      expect(model.requests).toHaveLength(2);
      expect(lastRequest()).not.toContain(SLOW_DONE);
      expect(lastRequest()).toMatch(/time/i);
    },
    CASE_MS,
  );
});
