/**
 * The recipe the Claude provider is built on, proven end to end: the real Claude Code CLI
 * (pinned in scripts/agents.json, from the agents folder, under its Node 22 runtime), with a
 * private HOME, pointed at the scripted model on loopback, with `switchyard mcp-serve` as its
 * only MCP server and its own tools off. The script makes it Write a file and Read it back
 * through the proxy; the test checks the first model request already offered the proxy's
 * tools, the file landed in the workspace, and each tool_result went back to the model.
 *
 * The agents folder is SWITCHYARD_AGENTS_DIR or ~/.cache/switchyard/agents. When Claude Code
 * is not there, the test installs it (`npm run agents:install -- --only claude`, about a
 * minute, once per machine); only when that install fails is the test skipped, saying why.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fingerprint, startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isAppError } from "../errors";
import { locateAgent, type LocatedAgent } from "./locate-agent";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const CLI_BIN = path.join(REPO, "packages/cli/bin/switchyard.mjs");
const PINS = JSON.parse(await readFile(path.join(REPO, "scripts/agents.json"), "utf8")) as {
  agents: { claude: { version: string } };
};
const AGENTS_DIR =
  process.env.SWITCHYARD_AGENTS_DIR || path.join(homedir(), ".cache/switchyard/agents");
const say = (line: string) => console.log(`[claude-smoke] ${line}`);

const locate = () => locateAgent(AGENTS_DIR, "claude", { version: PINS.agents.claude.version });

/** Claude Code from the agents folder, installed now when it is missing; undefined (with the reason printed) when that fails. */
const claudeCode = (): LocatedAgent | undefined => {
  try {
    return locate();
  } catch (error) {
    if (!isAppError(error) || error.code !== "EXECUTION.AGENT_UNAVAILABLE") throw error;
    say(`${error.message}`);
    say(
      `installing it now: npm run agents:install -- --only claude (into ${AGENTS_DIR}; once per machine)`,
    );
  }
  const install = spawnSync(
    "bash",
    [path.join(REPO, "scripts/agents-install.sh"), "--only", "claude"],
    {
      cwd: REPO,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, SWITCHYARD_AGENTS_DIR: AGENTS_DIR },
      timeout: 15 * 60_000,
    },
  );
  try {
    return locate();
  } catch (error) {
    say(
      `SKIPPED: Claude Code could not be installed into ${AGENTS_DIR} (install exit ${install.status}` +
        `${install.error ? `, ${install.error.message}` : ""}): ${(error as Error).message}`,
    );
    return undefined;
  }
};

const claude = claudeCode();

const API_KEY = "sk-ant-smoke-3b9f1c2d";
const BUILTINS = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"];
const PROXY_TOOLS = BUILTINS.map((t) => `mcp__switchyard__${t}`);
const CONTENT = "hello from the scripted model\n";
const PROMPT = "Write notes/hello.txt, then read it back and tell me what it says.";

type Run = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Runs the CLI in its own process group; the group is stopped afterwards (Claude Code leaves MCP servers behind). */
const run = (
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
) =>
  new Promise<Run>((resolve, reject) => {
    const child = spawn(command, args, {
      ...options,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const stopGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // the group is gone
      }
    };
    const timer = setTimeout(() => stopGroup("SIGKILL"), 150_000);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      stopGroup("SIGTERM");
      resolve({ code, signal, stdout, stderr });
    });
  });

describe.skipIf(!claude)("Claude Code through switchyard mcp-serve", () => {
  let dir: string;
  let model: ScriptedModel | undefined;

  beforeAll(() => {
    // The proxy starts from its bundle (a fast start keeps it ahead of Claude's first request).
    const build = spawnSync(process.execPath, [path.join(REPO, "packages/cli/bin/build.mjs")], {
      cwd: path.join(REPO, "packages/cli"),
      encoding: "utf8",
    });
    if (build.status !== 0) throw new Error(`building the switchyard bin failed: ${build.stderr}`);
  }, 120_000);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "claude-smoke-"));
  });
  afterEach(async () => {
    await model?.close();
    model = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it("writes a file through the proxy and reads it back, with the proxy's tools on the first request", async () => {
    const home = path.join(dir, "home");
    const work = path.join(dir, "work");
    const conf = path.join(dir, "conf");
    await Promise.all([home, work, conf].map((d) => mkdir(d, { recursive: true, mode: 0o700 })));
    const records = path.join(conf, "records.jsonl");
    await writeFile(
      path.join(conf, "proxy.json"),
      JSON.stringify({ root_dir: work, record_file: records }),
    );
    await writeFile(
      path.join(conf, "mcp.json"),
      JSON.stringify({
        mcpServers: {
          switchyard: {
            command: process.execPath,
            args: [CLI_BIN, "mcp-serve", "--config", path.join(conf, "proxy.json")],
          },
        },
      }),
    );

    model = await startScriptedModel({
      script: {
        turns: [
          {
            label: "write",
            expect: { toolOffered: PROXY_TOOLS, messagesContain: PROMPT },
            toolCalls: [
              {
                name: "mcp__switchyard__Write",
                arguments: { path: "notes/hello.txt", content: CONTENT },
              },
            ],
          },
          {
            label: "read",
            expect: { lastToolResultContains: `Wrote ${CONTENT.length} bytes to notes/hello.txt` },
            toolCalls: [{ name: "mcp__switchyard__Read", arguments: { path: "notes/hello.txt" } }],
          },
          {
            label: "answer",
            expect: { lastToolResultContains: CONTENT.trim() },
            text: "The file says: hello from the scripted model.",
          },
        ],
      },
    });

    const result = await run(
      claude!.command,
      [
        ...claude!.args,
        "-p",
        PROMPT,
        "--output-format",
        "stream-json",
        "--verbose",
        "--mcp-config",
        path.join(conf, "mcp.json"),
        "--strict-mcp-config",
        "--setting-sources",
        "user",
        "--tools",
        "",
        "--allowedTools",
        ...PROXY_TOOLS,
      ],
      {
        cwd: work,
        env: {
          HOME: home,
          PATH: `${claude!.pathPrefix}:/usr/local/bin:/usr/bin:/bin`,
          TMPDIR: path.join(dir, "tmp"),
          LANG: "C.UTF-8",
          ANTHROPIC_BASE_URL: model.url,
          ANTHROPIC_API_KEY: API_KEY,
          DISABLE_TELEMETRY: "1",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_AUTOUPDATER: "1",
        },
      },
    );
    const trace = () =>
      [
        `exit ${result.code} ${result.signal ?? ""}`,
        `stderr: ${result.stderr.slice(-2000)}`,
        `stdout: ${result.stdout.slice(-4000)}`,
        `requests: ${model!.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.answeredBy)} ${r.status}`).join("\n  ")}`,
        `failures: ${JSON.stringify(model!.failures, null, 1)}`,
      ].join("\n");

    expect(model.failures, trace()).toEqual([]);
    expect(result.code, trace()).toBe(0);
    expect(model.turnsLeft, trace()).toBe(0);

    // The first model request already offered the proxy's tools, and nothing of Claude's own
    // (2.1.332 also lists a `DeferredToolPlaceholder` with defer_loading, which the model
    // never sees unless it searches for tools).
    const turns = model.requests.filter((r) => r.answeredBy?.kind === "turn");
    const firstModelRequest = model.requests.find((r) => r.api === "anthropic")!;
    expect(firstModelRequest).toBe(turns[0]);
    const offered = firstModelRequest.view!.tools;
    expect(
      offered
        .filter((t) => !t.deferred)
        .map((t) => t.name)
        .sort(),
    ).toEqual([...PROXY_TOOLS].sort());
    expect(offered.filter((t) => t.deferred).map((t) => t.name)).toEqual([
      "DeferredToolPlaceholder",
    ]);
    expect(firstModelRequest.auth).toEqual([
      { header: "x-api-key", fingerprint: fingerprint(API_KEY) },
    ]);

    // The file is in the workspace, written by the proxy, and read back.
    expect(await readFile(path.join(work, "notes/hello.txt"), "utf8")).toBe(CONTENT);
    const calls = (await readFile(records, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { tool: string; is_error: boolean });
    expect(calls.map((c) => [c.tool, c.is_error])).toEqual([
      ["Write", false],
      ["Read", false],
    ]);

    // The tool results went back to the model: the CLI's stream shows them, and the final answer.
    const events = result.stdout
      .trim()
      .split("\n")
      .map(
        (l) =>
          JSON.parse(l) as {
            type: string;
            subtype?: string;
            result?: string;
            message?: { content?: unknown };
          },
      );
    const toolResults = events
      .filter((e) => e.type === "user")
      .flatMap((e) =>
        Array.isArray(e.message?.content)
          ? (e.message.content as { type: string; content?: unknown }[])
          : [],
      )
      .filter((b) => b.type === "tool_result");
    expect(toolResults).toHaveLength(2);
    expect(JSON.stringify(toolResults[1])).toContain("hello from the scripted model");
    const final = events.at(-1)!;
    expect(final).toMatchObject({
      type: "result",
      subtype: "success",
      result: "The file says: hello from the scripted model.",
    });
  }, 180_000);
});
