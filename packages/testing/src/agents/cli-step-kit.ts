/**
 * For the real-CLI tests of runCliStep: what the worker gives an agent step, laid out as it
 * lays it out. The step sandbox at the strongest level this machine has (strict as root,
 * with a uid of its own), a run folder per attempt with its workspace, the built
 * `switchyard` CLI staged where the step uid reaches it, the model gateway on a unix socket,
 * and each CLI staged from the agents folder. `brokenCli` makes a build whose `mcp-serve`
 * runs what the test says instead (exits at once, ends early), for a proxy that fails.
 */
import { chmod, copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createEventBus, type AttemptEvents } from "@switchyard/core/events";
import { startModelGateway, type ModelGateway } from "@switchyard/core/gateway";
import type { ToolCallRecord } from "@switchyard/core/mcp";
import {
  findSandboxHost,
  makeStepFolders,
  runOwnerId,
  type SandboxHost,
} from "@switchyard/core/sandbox";
import type { AgentStepEvent } from "@switchyard/core/providers";
import type { AgentId } from "@switchyard/core/providers";
import {
  runCliStep,
  type CliProvider,
  type CliStepInput,
  type CliStepResult,
} from "@switchyard/core/providers";
import { stageAgent, type StagedAgent } from "@switchyard/core/providers";
import { findBuiltCli, stageBuiltCli, type BuiltCli } from "@switchyard/core/providers";
import { agentsDirOf, buildSwitchyardBin, CLI_BIN } from "./step-processes";

/** A step uid no worker here hands out by default (they start at 60000), nor the bench's. */
const KIT_UID = 64_300 + (process.pid % 500);
const CLI_DIST = path.join(path.dirname(CLI_BIN), "../dist/");
/** The launcher `mcp-serve` starts from in a staged build (see step-proxy.ts). */
const LAUNCHER = "switchyard.mjs";

export type CliStepKit = {
  scratch: string;
  host: SandboxHost;
  uid: number | undefined;
  gateway: ModelGateway;
  /** The built CLI, staged: the proxy every step starts unless told. */
  cli: BuiltCli;
  /** `agent` at `version`, staged where the step uid reaches it. */
  stage: (agent: AgentId, version: string) => Promise<StagedAgent>;
  close: () => Promise<void>;
};

/** `env`: the test process's environment, for where the agents are installed (core never reads the environment itself). */
export const openCliStepKit = async (
  name: string,
  env: Record<string, string | undefined>,
): Promise<CliStepKit> => {
  buildSwitchyardBin();
  const scratch = await mkdtemp(path.join(tmpdir(), `sy-${name}-`));
  let gateway: ModelGateway | undefined;
  try {
    await chmod(scratch, 0o711); // step uids must be able to enter it
    const uid = process.getuid?.() === 0 ? KIT_UID : undefined;
    const ownerId = `${name}-${process.pid}`;
    const found = await findSandboxHost({
      mode: "auto",
      ownerId,
      scratchDir: scratch,
      probeUid: uid,
      optOut: "run the tests where the step sandbox works",
    });
    gateway = await startModelGateway({
      socketPath: path.join(scratch, "gateway.sock"),
      log: () => undefined,
    });
    const cli = await stageBuiltCli(await findBuiltCli(CLI_DIST), scratch);
    const agentsDir = agentsDirOf(env);
    const opened = gateway;
    return {
      scratch,
      host: { ...found, ownerId: runOwnerId(ownerId, "run") },
      uid,
      gateway,
      cli,
      stage: (agent, version) =>
        stageAgent(agentsDir, agent, path.join(scratch, ".agents"), version),
      close: async () => {
        await opened.close();
        await rm(scratch, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await gateway?.close();
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
};

/**
 * A copy of the kit's staged build whose launcher is `launcher` (an ES module's text)
 * instead of the one that runs `main`; `./<entry>` still holds the real bundle.
 */
export const brokenCli = async (
  kit: CliStepKit,
  name: string,
  launcher: string,
): Promise<BuiltCli> => {
  const dir = path.join(kit.scratch, `.broken-${name}`);
  await mkdir(dir, { mode: 0o755 });
  await chmod(dir, 0o755);
  for (const file of await readdir(kit.cli.dir)) {
    await copyFile(path.join(kit.cli.dir, file), path.join(dir, file));
    await chmod(path.join(dir, file), 0o644);
  }
  await writeFile(path.join(dir, LAUNCHER), launcher, { mode: 0o644 });
  return { ...kit.cli, dir: `${dir}/` };
};

export type KitStep = {
  provider: CliProvider;
  agent: StagedAgent;
  prompt: string;
  options: Record<string, unknown>;
  upstream: { baseUrl: string; apiKey: string };
  /** Unset: the kit's own build. */
  cli?: BuiltCli;
  /** Passed on to runCliStep as they are. */
  toolTimeoutMs?: CliStepInput["toolTimeoutMs"];
  suspend?: CliStepInput["suspend"];
  resume?: CliStepInput["resume"];
  /** Told each event the agent reports, as it comes. */
  reported?: (event: AgentStepEvent) => void;
};

export type KitStepRun = CliStepResult & { events: AgentStepEvent[]; records: ToolCallRecord[] };

let attempts = 0;

/** One attempt through runCliStep, in a run folder of its own; its events and records beside the result. */
export const runKitStep = async (kit: CliStepKit, step: KitStep): Promise<KitStepRun> => {
  const n = ++attempts;
  const runDir = path.join(kit.scratch, `run-${n}`);
  const folders = await makeStepFolders(
    runDir,
    kit.uid === undefined ? undefined : { uid: kit.uid },
  );
  const events: AgentStepEvent[] = [];
  const records: ToolCallRecord[] = [];
  const bus = createEventBus<AttemptEvents>();
  bus.subscribe("tool.recorded", (record) => records.push(record));
  bus.subscribe("agent.reported", (event) => {
    events.push(event);
    step.reported?.(event);
  });
  const result = await runCliStep({
    provider: step.provider,
    request: {
      stateName: "agent",
      attemptId: `attempt-${n}`,
      attempt: 1,
      path: { workflow: "kit", key: "agent", loop: [], calls: [] },
      provider: "kit",
      prompt: step.prompt,
      options: step.options,
      timeoutMs: 120_000,
      signal: new AbortController().signal,
    },
    proxy: {
      sandbox: kit.host,
      uid: kit.uid,
      runDir,
      workspace: folders.workspace,
      cli: step.cli ?? kit.cli,
    },
    agent: step.agent,
    gateway: kit.gateway,
    upstream: step.upstream,
    events: bus,
    ...(step.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: step.toolTimeoutMs }),
    ...(step.suspend ? { suspend: step.suspend } : {}),
    ...(step.resume ? { resume: step.resume } : {}),
  });
  return { ...result, events, records };
};
