/**
 * The gemini provider end to end: the real Gemini CLI (pinned in scripts/agents.json, from
 * the agents folder, under the Node 22 runtime) launched as buildGeminiLaunch says and run
 * by runGemini through a plain spawn port, against the scripted model on loopback, with the
 * real `switchyard mcp-serve` as its only MCP server. It drives the six built-ins through
 * the proxy, an escape the proxy refuses, usage and the answer; a workspace `.gemini/` that
 * must not count; a model that refuses the request; and a cancel mid-step that leaves no
 * process (the CLI, the proxy, the proxy's command), checked in /proc.
 *
 * Gemini CLI is installed into the agents folder on demand; only when that fails is the
 * suite skipped, saying why.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fingerprint, startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listPids, pidsWithEnv } from "../../sandbox/proc-scan";
import type { AgentStepEvent } from "../agent-events";
import { writeLaunchFiles } from "../launch-files";
import { installedAgent } from "../testing/installed-agent";
import { plainSpawn } from "../testing/plain-spawn";
import { buildGeminiLaunch } from "./build-gemini-launch";
import { runGemini } from "./run-gemini";

const MODEL = "gemini-2.5-flash";
const TOKEN = "gw-step-9d4e1b7a2c6f";
const TOOLS = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"];
const OFFERED = TOOLS.map((t) => `mcp_switchyard_${t}`);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");
const SWITCHYARD = path.join(REPO, "packages/cli/bin/switchyard.mjs");
const say = (line: string) => console.log(`[gemini-provider] ${line}`);
const agents =
  process.env.SWITCHYARD_AGENTS_DIR || path.join(homedir(), ".cache/switchyard/agents");
const gemini = installedAgent(agents, "gemini", say, process.env);

type Dirs = {
  root: string;
  home: string;
  tmp: string;
  work: string;
  records: string;
  proxyConfig: string;
  mark: string;
};

const newDirs = async (): Promise<Dirs> => {
  const root = await mkdtemp(path.join(tmpdir(), "gemini-provider-"));
  await chmod(root, 0o711);
  const at = (p: string) => path.join(root, p);
  const dirs = {
    root,
    home: at("home"),
    tmp: at("tmp"),
    work: at("work"),
    records: at("conf/records.jsonl"),
    proxyConfig: at("conf/proxy.json"),
    mark: `sleep 7${Math.floor(Math.random() * 9)}.${1000 + Math.floor(Math.random() * 8999)}`,
  };
  await Promise.all([dirs.home, dirs.tmp, at("conf")].map((d) => mkdir(d, { mode: 0o700 })));
  await mkdir(dirs.work, { mode: 0o755 });
  await writeFile(
    dirs.proxyConfig,
    JSON.stringify({ root_dir: dirs.work, record_file: dirs.records }),
  );
  return dirs;
};

type Request = { prompt: string; systemPrompt?: string; options?: Record<string, unknown> };

const launchIn = (dirs: Dirs, model: ScriptedModel, request: Request) =>
  buildGeminiLaunch({
    request: { options: { model: MODEL }, ...request },
    cli: { command: gemini!.command, args: gemini!.args },
    nodeBinDir: gemini!.pathPrefix,
    homeDir: dirs.home,
    tmpDir: dirs.tmp,
    proxy: {
      command: process.execPath,
      args: [SWITCHYARD, "mcp-serve", "--config", dirs.proxyConfig],
    },
    gateway: { baseUrl: model.url, token: TOKEN },
    toolNames: TOOLS,
  });

const runIn = async (
  dirs: Dirs,
  model: ScriptedModel,
  request: Request,
  signal = new AbortController().signal,
) => {
  const launch = launchIn(dirs, model, request);
  await writeLaunchFiles(launch.files, { home: dirs.home });
  const events: AgentStepEvent[] = [];
  let stdout = "";
  const spawn = plainSpawn({ cwd: dirs.work });
  const result = await runGemini({
    launch,
    spawn: async (req) => {
      const proc = await spawn(req);
      proc.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      return proc;
    },
    signal,
    timeoutMs: 150_000,
    onEvent: (e) => events.push(e),
  });
  const story = () =>
    [
      `${result.status} ${result.error ?? ""}`,
      `stderr: ${result.stderrTail.slice(-2000)}`,
      `stdout: ${stdout.slice(-3000)}`,
      ...model.requests.map(
        (q) => `${q.method} ${q.path} ${JSON.stringify(q.answeredBy)} ${q.status}`,
      ),
      `failures: ${JSON.stringify(model.failures)}`,
    ].join("\n");
  return { ...result, events, stdout, story };
};

const commandLine = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
};
const running = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};
/** What still runs of a step: its CLI and proxy (by HOME) and the proxy's marked command. */
const stepProcesses = (dirs: Dirs) =>
  [
    ...pidsWithEnv("HOME", dirs.home),
    ...listPids().filter((p) => commandLine(p).includes(dirs.mark)),
  ]
    .filter(running)
    .map((p) => `${p}: ${commandLine(p)}`);

const until = async (what: string, done: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; !done(); await new Promise((r) => setTimeout(r, 50)))
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
};

const expectNoStepProcesses = async (dirs: Dirs) => {
  await until("the step's processes to end", () => stepProcesses(dirs).length === 0, 15_000).catch(
    () => undefined,
  );
  expect(stepProcesses(dirs)).toEqual([]);
};

/** The six built-ins and an escape: tool, what the previous result says, arguments, refused. */
const CALLS: [string, string, Record<string, unknown>, boolean][] = [
  ["Write", "", { path: "notes/a.txt", content: "alpha\nbeta\n" }, false],
  ["Read", "Wrote 11 bytes to notes/a.txt", { path: "notes/a.txt" }, false],
  ["Edit", "alpha\nbeta", { path: "notes/a.txt", old: "beta", new: "gamma" }, false],
  ["Bash", "1 replacement", { command: "cat notes/a.txt" }, false],
  ["Glob", "alpha\ngamma", { pattern: "**/*.txt" }, false],
  ["Grep", "notes/a.txt", { pattern: "gam+a", output_mode: "content" }, false],
  ["Read", "notes/a.txt:2:gamma", { path: "../../../etc/passwd" }, true],
];

/** The proxy starts from its bundle: a fast start keeps it ahead of the CLI's first request. */
const buildProxyBundle = () => {
  const built = spawnSync(process.execPath, ["bin/build.mjs"], {
    cwd: path.join(REPO, "packages/cli"),
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`building the switchyard bin failed: ${built.stderr}`);
};

describe.skipIf(!gemini)("the gemini provider with the real Gemini CLI", () => {
  let dirs: Dirs;
  let model: ScriptedModel | undefined;

  beforeAll(buildProxyBundle, 120_000);
  beforeEach(async () => {
    dirs = await newDirs();
  });
  afterEach(async () => {
    await Promise.all([model?.close(), rm(dirs.root, { recursive: true, force: true })]);
    model = undefined;
  });

  it("drives the six built-ins through the proxy, survives a refused escape, ignores a workspace .gemini/, and returns usage and the answer", async () => {
    // Planted in the workspace: settings with a hook, an MCP server and the CLI's shell tool, and a .env. None may count.
    const pwned = path.join(dirs.root, "PWNED");
    await mkdir(path.join(dirs.work, ".gemini"));
    await writeFile(
      path.join(dirs.work, ".gemini/settings.json"),
      JSON.stringify({
        hooksConfig: { enabled: true },
        hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch ${pwned}` }] }] },
        mcpServers: { planted: { command: "/bin/sh", args: ["-c", `touch ${pwned}`] } },
        tools: { core: ["run_shell_command"] },
      }),
    );
    await writeFile(path.join(dirs.work, ".env"), "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9\n");
    const prompt = `${"Context line.\n".repeat(6000)}Edit notes/a.txt. PROMPT-END-9`;
    const answer = "Done: notes/a.txt now says alpha and gamma.";
    const first = {
      toolOffered: OFFERED,
      messagesContain: "PROMPT-END-9",
      systemContains: "You are SYSTEM-END-9.",
      model: MODEL,
    };
    model = await startScriptedModel({
      script: {
        turns: [
          ...CALLS.map(([tool, after, args], i) => ({
            label: `${i + 1}: ${tool}`,
            expect: i === 0 ? first : { lastToolResultContains: after },
            ...(i === 0 ? { text: "Writing the file first." } : {}),
            toolCalls: [{ name: `mcp_switchyard_${tool}`, arguments: args }],
          })),
          {
            label: "answer",
            expect: { lastToolResultContains: "outside the workspace" },
            text: answer,
          },
        ],
      },
    });

    const r = await runIn(dirs, model, { prompt, systemPrompt: "Rules.\nYou are SYSTEM-END-9." });
    if (process.env.GEMINI_CAPTURE) await writeFile(process.env.GEMINI_CAPTURE, r.stdout);
    expect(model.failures, r.story()).toEqual([]);
    expect(model.turnsLeft, r.story()).toBe(0);
    expect(r, r.story()).toMatchObject({ status: "success", output: answer, exitCode: 0 });
    expect(r.tokensInput).toBeGreaterThan(0);
    expect(r.tokensOutput).toBeGreaterThan(0);
    expect(r.tokensUsed).toBe(r.tokensInput! + r.tokensOutput!);
    expect(r.sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const uses = r.events.flatMap((e) => (e.type === "tool_use" ? [e] : []));
    expect(uses.map((u) => [u.name, u.native ?? false])).toEqual(
      CALLS.map(([tool]) => [tool, false]),
    );
    const results = r.events.flatMap((e) => (e.type === "tool_result" ? [e] : []));
    expect(results.map((x) => x.id)).toEqual(uses.map((u) => u.id));
    expect(results.map((x) => x.isError)).toEqual(CALLS.map((c) => c[3]));
    expect(results[6]!.text).toContain("outside the workspace");
    expect(r.events.filter((e) => e.type === "usage")).toHaveLength(1);
    expect(r.events.filter((e) => e.type === "error")).toEqual([]);
    expect(r.events.at(-1)).toEqual({ type: "final", text: answer });
    expect(await readFile(path.join(dirs.work, "notes/a.txt"), "utf8")).toBe("alpha\ngamma\n");
    const records = (await readFile(dirs.records, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { tool: string; is_error: boolean });
    expect(records.map((c) => [c.tool, c.is_error])).toEqual(
      CALLS.map(([tool, , , refused]) => [tool, refused]),
    );

    // The first model request already offered the proxy's tools, and nothing else; the key was the step token.
    const opening = model.requests.find((q) => q.api === "gemini")!;
    expect(opening.view!.tools.map((t) => t.name).sort()).toEqual([...OFFERED].sort());
    expect(opening.auth).toEqual([{ header: "x-goog-api-key", fingerprint: fingerprint(TOKEN) }]);
    expect(existsSync(pwned)).toBe(false);
    await expectNoStepProcesses(dirs);
  }, 180_000);

  it("fails with the model's code when the model refuses the request", async () => {
    model = await startScriptedModel({
      script: {
        turns: [],
        rules: [
          { match: { api: "gemini" }, error: { status: 400, message: "scripted rejection" } },
        ],
      },
    });
    const r = await runIn(dirs, model, { prompt: "hi" });
    if (process.env.GEMINI_CAPTURE)
      await writeFile(`${process.env.GEMINI_CAPTURE}.rejected`, r.stdout);
    const refused = { status: "failure", errorCode: "USER.PROVIDER.REQUEST_REJECTED" };
    expect(r, r.story()).toMatchObject(refused);
    expect(r.error).toContain("scripted rejection");
    expect(r.events.some((e) => e.type === "text")).toBe(false);
  }, 180_000);

  it("stops the CLI, its MCP server and the server's command when the step is cancelled", async () => {
    const longBash = { name: "mcp_switchyard_Bash", arguments: { command: dirs.mark } };
    model = await startScriptedModel({
      script: { turns: [{ label: "long bash", toolCalls: [longBash] }] },
    });
    const controller = new AbortController();
    const pending = runIn(dirs, model, { prompt: "Run the long command." }, controller.signal);
    await until(
      "the proxy's command to start",
      () => listPids().some((p) => commandLine(p).includes(dirs.mark)),
      60_000,
    );
    const live = pidsWithEnv("HOME", dirs.home).map(commandLine);
    expect(live.some((c) => c.includes(gemini!.entry))).toBe(true);
    expect(live.some((c) => c.includes("mcp-serve"))).toBe(true);
    controller.abort();
    const r = await pending;
    expect(r, r.story()).toMatchObject({ status: "cancelled", errorCode: "EXECUTION.CANCELLED" });
    expect(r.events.some((e) => e.type === "tool_use" && e.name === "Bash")).toBe(true);
    await expectNoStepProcesses(dirs);
  }, 180_000);
});
