/**
 * `switchyard run` refuses, before any step and with the file and line, what only a server
 * runs, and what it cannot start: `mcp_proxy.plugin_tools` name the run's local connectors;
 * with no connectors file, or a bad one, the step is refused. Through the real bin.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
  return { file, ...runFile(file) };
};

/** `switchyard run <file>` in the test's folder, at the default level. */
const runFile = (file: string) => {
  const r = spawnSync(process.execPath, [bin, "run", file], {
    encoding: "utf8",
    cwd: ws,
    env: { ...process.env, SWITCHYARD_SANDBOX: "" },
    timeout: 45_000,
  });
  return { code: r.status, err: r.stderr };
};

beforeEach(() => {
  ws = mkdtempSync(path.join(tmpdir(), "sy-server-only-"));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

it("refuses plugin_tools naming a connector with no connectors file, at the entry's line, running nothing", () => {
  const r = run("    mcp_proxy:\n      plugin_tools: [{ plugin: files, expose: [echo] }]\n");
  expect(r.code, r.err).toBe(1);
  expect(r.err).toContain(`${r.file}:14:`);
  expect(r.err).toContain("USER.MCP_PROXY.UNKNOWN_PLUGIN");
  expect(r.err).toContain("no connectors file");
  expect(r.err).not.toContain("USER.UNSUPPORTED_FEATURE");
  expect(spawnSync("ls", [ws], { encoding: "utf8" }).stdout).not.toContain("ran.txt");
});

it("refuses a bad connectors file with its line and field", () => {
  mkdirSync(path.join(ws, ".switchyard"));
  writeFileSync(
    path.join(ws, ".switchyard/connectors.json"),
    '{\n  "mcpServers": {\n    "files": { "url": "https://example.com/mcp" }\n  }\n}\n',
  );
  const r = run("    mcp_proxy:\n      plugin_tools: [{ plugin: files, expose: [echo] }]\n");
  expect(r.code, r.err).toBe(1);
  expect(r.err).toContain("USER.CONNECTOR.INVALID");
  expect(r.err).toContain(`${path.join(ws, ".switchyard/connectors.json")}:3:`);
  expect(r.err).toContain("mcpServers.files.url: switchyard run starts stdio servers only");
  expect(spawnSync("ls", [ws], { encoding: "utf8" }).stdout).not.toContain("ran.txt");
});

it("refuses a sub-workflow's plugin_tools naming an undeclared connector, at its own file's line", () => {
  mkdirSync(path.join(ws, ".switchyard"));
  writeFileSync(
    path.join(ws, ".switchyard/connectors.json"),
    '{ "mcpServers": { "notes": { "command": "node", "args": ["notes.mjs"] } } }\n',
  );
  const child = path.join(ws, "child.yaml");
  writeFileSync(
    child,
    `name: child
states:
  initial: agent
  agent:
    type: agent
    provider: openai_compatible
    prompt: hi
    options: { base_url: "http://127.0.0.1:9/v1", model: m }
    mcp_proxy:
      plugin_tools:
        - plugin: files
          expose: [echo]
    on_success: done
  done: { type: terminal }
`,
  );
  const file = path.join(ws, "parent.yaml");
  writeFileSync(
    file,
    `name: parent
states:
  initial: first
  first:
    type: step
    command: touch ran.txt
    on_success: call
  call:
    type: call_workflow
    workflow: child
    on_success: done
  done: { type: terminal }
`,
  );
  const r = runFile(file);
  expect(r.code, r.err).toBe(1);
  expect(r.err).toContain(`${child}:11:`);
  expect(r.err).toContain(
    `USER.MCP_PROXY.UNKNOWN_PLUGIN states.agent.mcp_proxy.plugin_tools[0].plugin: plugin 'files' not found: "files" is not one of the servers in`,
  );
  expect(spawnSync("ls", [ws], { encoding: "utf8" }).stdout).not.toContain("ran.txt");
});
