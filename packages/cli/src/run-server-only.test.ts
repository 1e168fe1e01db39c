/**
 * `switchyard run` refuses, before any step and with the file and line, what only a server
 * runs: `mcp_proxy.plugin_tools` (team connectors). Through the real bin.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../bin/switchyard.mjs");
let ws: string;

const run = (agentExtra: string) => {
  const file = path.join(ws, "wf.yaml");
  writeFileSync(
    file,
    `name: wf
states:
  initial: first
  first:
    type: step
    command: touch ran.txt
    on_success: agent
  agent:
    type: agent
    provider: openai_compatible
    prompt: hi
    options: { base_url: "http://127.0.0.1:9/v1", model: m }
${agentExtra}    on_success: done
  done: { type: terminal }
`,
  );
  const r = spawnSync(process.execPath, [bin, "run", file], {
    encoding: "utf8",
    cwd: ws,
    env: { ...process.env, SWITCHYARD_SANDBOX: "" },
    timeout: 45_000,
  });
  return { file, code: r.status, err: r.stderr };
};

beforeEach(() => {
  ws = mkdtempSync(path.join(tmpdir(), "sy-server-only-"));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

it("refuses plugin_tools, which name a team's connectors", () => {
  const r = run("    mcp_proxy:\n      plugin_tools: [{ plugin: files, expose: [echo] }]\n");
  expect(r.code, r.err).toBe(1);
  expect(r.err).toContain("USER.UNSUPPORTED_FEATURE");
  expect(r.err).toContain("mcp_proxy.plugin_tools");
});
