/**
 * runGemini's outcomes on real processes: a stand-in CLI (test/fixtures/fake-gemini.mjs) replays
 * Gemini CLI's captured stream-json output, ends without a result, fails, or lingers after
 * its result, started through the plain spawn port. The real CLI is in
 * ../cli-providers.int.test.ts.
 */
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgentStepEvent } from "../agent-events";
import { plainSpawn } from "@switchyard/testing/agents";
import { runGemini, type RunGeminiInput } from "./run-gemini";

const FAKE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../../test/fixtures/fake-gemini.mjs",
);
const TOKEN = "gw-step-token-8a7b6c5d4e";

const run = async (args: string[], over: Partial<RunGeminiInput> = {}) => {
  const events: AgentStepEvent[] = [];
  const result = await runGemini({
    launch: {
      argv: [process.execPath, FAKE, ...args],
      env: { PATH: "/usr/bin:/bin", GEMINI_API_KEY: TOKEN },
      files: [],
    },
    spawn: plainSpawn({ cwd: tmpdir(), killGraceMs: 1000 }),
    signal: new AbortController().signal,
    onEvent: (e) => events.push(e),
    ...over,
  });
  return { result, events };
};

describe("runGemini", () => {
  it("returns the answer, usage and session of a run, with the gateway token scrubbed", async () => {
    const { result, events } = await run(["six-tools", "say-key"]);
    expect(result).toMatchObject({
      status: "success",
      exitCode: 0,
      output: "Done: notes/a.txt now says alpha and gamma.",
    });
    expect(result.tokensUsed).toBe(result.tokensInput! + result.tokensOutput!);
    expect(result.tokensInput).toBeGreaterThan(0);
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    expect(events.find((e) => e.type === "text")).toEqual({
      type: "text",
      text: "key [REDACTED]Writing the file first.",
    });
    expect(events.filter((e) => e.type === "tool_use")).toHaveLength(7);
  });

  it("fails with the model's code and the endpoint's own words when the model refused the request", async () => {
    const { result, events } = await run(["rejected", "exit=1"]);
    expect(result).toMatchObject({
      status: "failure",
      errorCode: "USER.PROVIDER.REQUEST_REJECTED",
      errorReported: true,
      retryable: false,
      error:
        "USER.PROVIDER.REQUEST_REJECTED: the model endpoint answered HTTP 400: scripted rejection",
    });
    expect(events.at(-1)).toMatchObject({ type: "error", code: "USER.PROVIDER.REQUEST_REJECTED" });
  });

  it("fails with EXECUTION.AGENT_NO_RESULT quoting stderr when the CLI ends without a result", async () => {
    const { result } = await run(["-", `stderr=Error in settings: ${TOKEN} is bad`, "exit=41"]);
    expect(result).toMatchObject({ status: "failure", errorCode: "EXECUTION.AGENT_NO_RESULT" });
    expect(result.errorReported).toBeUndefined();
    expect(result.error).toContain(
      "Gemini CLI exited with code 41 without reporting a result; its last output: Error in settings",
    );
    expect(result.error).not.toContain(TOKEN);
    expect(result.stderrTail).not.toContain(TOKEN);
  });

  it("fails a success result from a CLI that then exits non-zero, and stops one that lingers after its result", async () => {
    const bad = await run(["six-tools", "exit=3"]);
    expect(bad.result).toMatchObject({ status: "failure", errorCode: "EXECUTION.AGENT_FAILED" });
    expect(bad.result.error).toContain("reported success but exited with code 3");
    const lingering = await run(["six-tools", "linger"], { resultGraceMs: 200 });
    expect(lingering.result).toMatchObject({
      status: "success",
      output: "Done: notes/a.txt now says alpha and gamma.",
    });
  });

  it("is cancelled by the signal", async () => {
    const controller = new AbortController();
    const pending = run(["-", "linger"], { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const { result } = await pending;
    expect(result).toMatchObject({ status: "cancelled", errorCode: "EXECUTION.CANCELLED" });
  });
});
