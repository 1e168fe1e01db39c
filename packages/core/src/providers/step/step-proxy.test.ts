/**
 * An agent step's sandbox and proxy on their own: the real sandbox, the built `switchyard mcp-serve`
 * inside it and the SDK client over its stdio. The proxy serves the six built-ins in the
 * run's workspace, its call records come back over the step channel, and closing leaves
 * neither a process nor the sandbox's folder; a proxy that does not say ready in time
 * fails with EXECUTION.MCP_PROXY.NOT_READY and leaves nothing either; a build without its
 * launcher (an older build.mjs made it) is refused, saying to rebuild.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AppError } from "../../errors";
import { createEventBus, type ChannelEvents } from "../../events";
import type { ToolCallRecord } from "../../mcp";
import {
  findSandboxHost,
  makeStepFolders,
  OWNER_TAG,
  type SandboxHost,
  type StepFolders,
} from "../../sandbox";
import { afterAll, beforeAll, expect, it } from "vitest";
import { findBuiltCli, stageBuiltCli, type BuiltCli } from "./built-cli";
import { openStepProxyClient } from "./step-proxy";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");
const UID = process.getuid?.() === 0 ? 61_937 : undefined;
let dir: string;
let runDir: string;
let host: SandboxHost;
let folders: StepFolders;
let cli: BuiltCli;

beforeAll(async () => {
  const built = spawnSync(process.execPath, [path.join(REPO, "packages/cli/bin/build.mjs")], {
    cwd: REPO,
    encoding: "utf8",
    timeout: 240_000,
  });
  if (built.status !== 0) throw new Error(`building the CLI failed: ${built.stderr}`);
  dir = await mkdtemp(path.join(tmpdir(), "sy-agent-sandbox-"));
  await chmod(dir, 0o711);
  // As the worker does: bound from a copy the step uid can reach, not from the checkout.
  cli = await stageBuiltCli(await findBuiltCli(path.join(REPO, "packages/cli/dist/")), dir);
  const ownerId = `agent-sandbox-test-${process.pid}`;
  host = await findSandboxHost({
    mode: "auto",
    ownerId,
    scratchDir: dir,
    probeUid: UID,
    optOut: "SWITCHYARD_SANDBOX=none",
  });
  host = { ...host, ownerId: `${ownerId}/run1` };
  runDir = path.join(dir, "run1");
  folders = await makeStepFolders(runDir, UID === undefined ? undefined : { uid: UID });
}, 300_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const recording = (records: ToolCallRecord[]) => {
  const events = createEventBus<ChannelEvents>();
  events.subscribe("tool.recorded", (r) => records.push(r));
  return events;
};

const open = (attemptId: string, records: ToolCallRecord[], readyTimeoutMs?: number) =>
  openStepProxyClient({
    sandbox: host,
    attemptId,
    uid: UID,
    runDir,
    workspace: folders.workspace,
    cli,
    secrets: ["sk-never-recorded-4821"],
    events: recording(records),
    signal: new AbortController().signal,
    ...(readyTimeoutMs === undefined ? {} : { readyTimeoutMs }),
  });

/** Processes tagged with the attempt's owner tag or one below it. */
const tagged = (owner: string) =>
  readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, "latin1")
          .split("\0")
          .some((e) => e === `${OWNER_TAG}=${owner}` || e.startsWith(`${OWNER_TAG}=${owner}/`));
      } catch {
        return false;
      }
    });

const sessionFolders = async () => (await readdir(runDir)).filter((n) => n.startsWith("agent-"));

it("stages one build once when many steps of one worker stage it at the same moment", async () => {
  const parent = await mkdtemp(path.join(tmpdir(), "sy-stage-"));
  try {
    const built = await findBuiltCli(path.join(REPO, "packages/cli/dist/"));
    // As steps of runs a restarted worker resumes all at once: the same build, the same millisecond.
    for (let round = 0; round < 10; round++) {
      await rm(parent, { recursive: true, force: true });
      await mkdir(parent, { recursive: true });
      const staged = await Promise.all(
        Array.from({ length: 8 }, () => stageBuiltCli(built, parent)),
      );
      expect(new Set(staged.map((s) => s.dir)).size).toBe(1);
    }
    const staged = await Promise.all(Array.from({ length: 8 }, () => stageBuiltCli(built, parent)));
    expect((await readdir(parent)).filter((n) => n.startsWith(".cli-"))).toEqual([
      path.basename(staged[0]!.dir),
    ]);
    expect(await readdir(staged[0]!.dir)).toContain("switchyard.mjs");
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
});

it("refuses a build without its launcher (made by an older build.mjs), saying to rebuild", async () => {
  const old = await mkdtemp(path.join(tmpdir(), "sy-old-build-"));
  try {
    const dist = path.join(REPO, "packages/cli/dist/");
    await writeFile(path.join(old, "inputs.json"), await readFile(path.join(dist, "inputs.json")));
    const refused = await findBuiltCli(`${old}/`).catch((error: unknown) => error as AppError);
    expect(refused).toMatchObject({ code: "EXECUTION.MCP_PROXY.UNAVAILABLE" });
    expect((refused as AppError).message).toMatch(
      /has no switchyard\.mjs .*run `node packages\/cli\/bin\/build\.mjs`/,
    );
    // The build itself has it, so the proxy starts from it in place as from a staged copy.
    expect((await findBuiltCli(dist)).dir).toBe(dist);
  } finally {
    await rm(old, { recursive: true, force: true });
  }
});

it("serves the built-ins in the run's workspace and records each call over the channel", async () => {
  const records: ToolCallRecord[] = [];
  const step = await open("attempt-1", records);
  try {
    const { tools } = await step.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "Bash",
      "Edit",
      "Glob",
      "Grep",
      "Read",
      "Write",
    ]);
    const wrote = await step.client.callTool({
      name: "Write",
      arguments: { path: "out.txt", content: "sk-never-recorded-4821 ok\n" },
    });
    expect(wrote.isError).toBeFalsy();
    const escape = await step.client.callTool({ name: "Read", arguments: { path: "/etc/shadow" } });
    expect(escape.isError).toBe(true);
  } finally {
    await step.close();
  }
  expect(await readFile(path.join(folders.workspace, "out.txt"), "utf8")).toBe(
    "sk-never-recorded-4821 ok\n",
  );
  expect(records.map((r) => [r.tool, r.source, r.is_error])).toEqual([
    ["Write", "builtin", false],
    ["Read", "builtin", true],
  ]);
  expect(JSON.stringify(records)).not.toContain("sk-never-recorded-4821");
  expect(tagged(`${host.ownerId}/attempt-1`)).toEqual([]);
  expect(await sessionFolders()).toEqual([]);
}, 60_000);

it("fails with EXECUTION.MCP_PROXY.NOT_READY when the proxy is not ready in time, leaving nothing", async () => {
  await expect(open("attempt-2", [], 1)).rejects.toMatchObject({
    code: "EXECUTION.MCP_PROXY.NOT_READY",
  });
  expect(tagged(`${host.ownerId}/attempt-2`)).toEqual([]);
  expect(await sessionFolders()).toEqual([]);
}, 60_000);
