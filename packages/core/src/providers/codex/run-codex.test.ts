/**
 * runCodex's outcomes on real processes: the stand-in CLI (test/fixtures/fake-claude.mjs,
 * whose `replay` mode prints a file and exits as told) replays Codex's captured output,
 * started through the plain spawn port. The real CLI is in ../cli-providers.int.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentStepEvent } from "../agent-events";
import { plainSpawn } from "@switchyard/testing/agents";
import { runCodex } from "./run-codex";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FAKE = path.join(HERE, "../../../../../test/fixtures/fake-claude.mjs");
const FIXTURE = (name: string) => path.join(HERE, "fixtures", `${name}.stream.jsonl`);
const TOKEN = "gw-step-token-8e3f1a6c2d";
const scratch = mkdtempSync(path.join(tmpdir(), "run-codex-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const replay = async (file: string, code = "0", stderr = "") => {
  const events: AgentStepEvent[] = [];
  const result = await runCodex({
    launch: {
      argv: [process.execPath, FAKE, "replay", file, code, stderr],
      env: { PATH: "/usr/bin:/bin", SWITCHYARD_MODEL_TOKEN: TOKEN },
      files: [],
    },
    spawn: plainSpawn({ cwd: tmpdir(), killGraceMs: 1000 }),
    signal: new AbortController().signal,
    onEvent: (e) => events.push(e),
    secrets: ["team-secret-value"],
  });
  return { result, events };
};

describe("runCodex", () => {
  it("succeeds with the last agent message, Codex's usage and the thread as the session", async () => {
    const { result, events } = await replay(FIXTURE("six-tools"));
    expect(result).toMatchObject({
      status: "success",
      output: "Done: notes/a.txt now says alpha and gamma.",
      exitCode: 0,
      tokensInput: 434010,
      tokensOutput: 88,
      tokensUsed: 434098,
      sessionId: "01a22e73-c142-72b1-b65e-c2b413cb6d09",
    });
    expect(events.filter((e) => e.type === "tool_use")).toHaveLength(7);
  });

  it("fails with the model's code on a failed turn, reporting the error once", async () => {
    const { result, events } = await replay(FIXTURE("rejected"), "1");
    expect(result).toMatchObject({
      status: "failure",
      errorCode: "USER.PROVIDER.REQUEST_REJECTED",
      error: "USER.PROVIDER.REQUEST_REJECTED: the model request was rejected: scripted rejection",
      errorReported: true,
      retryable: false,
    });
    expect(events.filter((e) => e.type === "error")).toHaveLength(1);
  });

  it("says the proxy is unavailable when Codex could not start its required MCP server", async () => {
    const empty = path.join(scratch, "empty.jsonl");
    writeFileSync(empty, "");
    const { result, events } = await replay(
      empty,
      "1",
      "Error: thread/start failed: required MCP servers failed to initialize: switchyard: handshaking with MCP server failed\n",
    );
    expect(result).toMatchObject({
      status: "failure",
      errorCode: "EXECUTION.MCP_PROXY.UNAVAILABLE",
    });
    expect(result.errorReported).toBeUndefined();
    expect(result.error).toContain("Codex exited with code 1 without reporting a result");
    expect(events).toEqual([
      expect.objectContaining({ type: "error", code: "EXECUTION.MCP_PROXY.UNAVAILABLE" }),
    ]);
  });

  it("fails with EXECUTION.AGENT_NO_RESULT, quoting Codex's notices, when it ends mid-turn", async () => {
    const cut = path.join(scratch, "cut.jsonl");
    writeFileSync(
      cut,
      [
        JSON.stringify({ type: "thread.started", thread_id: "t-1" }),
        JSON.stringify({
          type: "error",
          message: `stream broke near ${TOKEN} and team-secret-value`,
        }),
        "",
      ].join("\n"),
    );
    const { result, events } = await replay(cut, "0");
    expect(result).toMatchObject({
      status: "failure",
      errorCode: "EXECUTION.AGENT_NO_RESULT",
      sessionId: "t-1",
    });
    expect(result.error).toContain("stream broke near");
    expect(JSON.stringify([result, events])).not.toContain(TOKEN);
    expect(JSON.stringify([result, events])).not.toContain("team-secret-value");
  });
});
