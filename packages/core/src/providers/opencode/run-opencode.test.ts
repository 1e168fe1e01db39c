/**
 * runOpencode's outcomes on real processes: the stand-in CLI of the claude tests
 * (test/fixtures/fake-claude.mjs) replays OpenCode's captured output, crashes or hangs, started
 * through the plain spawn port. The real CLI is in ../cli-providers.int.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentStepEvent } from "../agent-events";
import { plainSpawn } from "@switchyard/testing/agents";
import { runOpencode, type RunOpencodeInput } from "./run-opencode";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FAKE = path.join(HERE, "../../../../../test/fixtures/fake-claude.mjs");
const FIXTURE = (name: string) => path.join(HERE, "fixtures", `${name}.stream.jsonl`);
const TOKEN = "gw-step-token-77ad01";
const scratch = mkdtempSync(path.join(tmpdir(), "fake-opencode-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = async (args: string[], over: Partial<RunOpencodeInput> = {}) => {
  const events: AgentStepEvent[] = [];
  const result = await runOpencode({
    launch: {
      argv: [process.execPath, FAKE, ...args],
      env: { PATH: "/usr/bin:/bin", SWITCHYARD_GATEWAY_TOKEN: TOKEN },
      files: [],
    },
    spawn: plainSpawn({ cwd: tmpdir(), killGraceMs: 1000 }),
    signal: new AbortController().signal,
    onEvent: (e) => events.push(e),
    ...over,
  });
  return { result, events };
};

describe("runOpencode", () => {
  it("returns the answer, usage, turns and session of a captured run", async () => {
    const { result, events } = await run(["replay", FIXTURE("tools")]);
    expect(result).toMatchObject({
      status: "success",
      output: "All done.",
      exitCode: 0,
      turns: 4,
      sessionId: "ses_dd19909a5ffeR6tuUR47eiLUFc",
      tokensInput: 6311,
      tokensOutput: 44,
      tokensUsed: 6355,
    });
    expect(result.costUsd).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: "final", text: "All done." });
  });

  it("fails with the model's code on a rejected request, the token scrubbed from stderr", async () => {
    const { result, events } = await run([
      "replay",
      FIXTURE("rejected"),
      "1",
      `key ${TOKEN} refused\n`,
    ]);
    expect(result).toMatchObject({
      status: "failure",
      errorCode: "USER.PROVIDER.REQUEST_REJECTED",
      error: "USER.PROVIDER.REQUEST_REJECTED: scripted rejection",
      errorReported: true,
      retryable: false,
    });
    expect(result.stderrTail).not.toContain(TOKEN);
    expect(events.filter((e) => e.type === "error")).toHaveLength(1);
  });

  it("fails when the CLI answers but exits unclean", async () => {
    const { result } = await run(["replay", FIXTURE("tools"), "3"]);
    expect(result).toMatchObject({
      status: "failure",
      errorCode: "EXECUTION.AGENT_FAILED",
      output: "All done.",
    });
    expect(result.error).toContain("OpenCode reported an answer but exited with code 3");
  });

  it("fails with EXECUTION.AGENT_NO_RESULT quoting stderr when the CLI ends without an answer", async () => {
    const { result, events } = await run(["crash"]);
    expect(result).toMatchObject({ status: "failure", errorCode: "EXECUTION.AGENT_NO_RESULT" });
    expect(result.error).toContain("OpenCode exited with code 1 without reporting a result");
    expect(result.error).toContain("Invalid MCP configuration");
    expect(events.at(-1)).toMatchObject({ type: "error", code: "EXECUTION.AGENT_NO_RESULT" });
  });

  it("is cancelled, or times out, stopping a CLI that hangs", async () => {
    const controller = new AbortController();
    const pending = run(["hang", path.join(scratch, "pids")], { signal: controller.signal });
    setTimeout(() => controller.abort(), 500);
    expect((await pending).result).toMatchObject({
      status: "cancelled",
      errorCode: "EXECUTION.CANCELLED",
    });
    const { result } = await run(["hang", path.join(scratch, "pids2")], { timeoutMs: 500 });
    expect(result).toMatchObject({ status: "failure", errorCode: "EXECUTION.TIMEOUT" });
    expect(result.error).toContain("OpenCode did not finish within 0.5 s");
  });
});
