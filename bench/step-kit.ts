/**
 * What the agent benches share, laid out as the worker lays out a run: the built CLI (made
 * once per bench run) staged where a step uid can reach it, the step sandbox at the level
 * this machine supports (strict as root, with a uid of its own), and a run folder with its
 * workspace, HOME and temp folder. `close` removes it all.
 */
import { spawnSync } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createEventBus, type ChannelEvents } from "@switchyard/core/events";
import type { ToolCallRecord } from "@switchyard/core/mcp";
import {
  findBuiltCli,
  openStepProxyClient,
  stageBuiltCli,
  type BuiltCli,
  type StepProxyOptions,
  type StepTools,
} from "@switchyard/core/providers";
import {
  findSandboxHost,
  makeStepFolders,
  runOwnerId,
  type SandboxHost,
  type StepFolders,
} from "@switchyard/core/sandbox";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** A step uid no worker of this machine hands out by default (those start at 60000). */
const BENCH_UID = 64_100;

let built = false;
/** Builds packages/cli/dist once per bench run: every `mcp-serve` measured is the built bin. */
export const buildCli = () => {
  if (built) return;
  const build = spawnSync(process.execPath, [path.join(REPO, "packages/cli/bin/build.mjs")], {
    encoding: "utf8",
  });
  if (build.status !== 0) throw new Error(`packages/cli build failed: ${build.stderr}`);
  built = true;
};

export type StepKit = {
  scratch: string;
  /** The run's host: owner tag `<bench>/<run>`, as execute-run.ts makes it. */
  host: SandboxHost;
  uid: number | undefined;
  runDir: string;
  folders: StepFolders;
  /** The built CLI, staged in the scratch folder. */
  cli: BuiltCli;
  close: () => Promise<void>;
};

export const openStepKit = async (name: string): Promise<StepKit> => {
  buildCli();
  const scratch = await mkdtemp(path.join(tmpdir(), `sy-bench-${name}-`));
  try {
    await chmod(scratch, 0o711); // step uids must be able to enter it
    const uid = process.getuid?.() === 0 ? BENCH_UID : undefined;
    const ownerId = `bench-${name}-${process.pid}`;
    const found = await findSandboxHost({
      mode: "auto",
      ownerId,
      scratchDir: scratch,
      probeUid: uid,
      optOut: "SWITCHYARD_SANDBOX=none",
    });
    const host = { ...found, ownerId: runOwnerId(ownerId, "run1") };
    const runDir = path.join(scratch, "run1");
    const folders = await makeStepFolders(runDir, uid === undefined ? undefined : { uid });
    const cli = await stageBuiltCli(
      await findBuiltCli(path.join(REPO, "packages/cli/dist/")),
      scratch,
    );
    return {
      scratch,
      host,
      uid,
      runDir,
      folders,
      cli,
      close: () => rm(scratch, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
};

/**
 * The step's proxy with the worker's client, as an openai_compatible step has it (`tools`:
 * what it serves beyond the six built-ins); `call` makes `toolCall` and resolves once the
 * result and the call's record are both in, and `untilResult` keeps how long the result alone
 * took (what the agent waits).
 */
export const openStepProxySession = async (
  kit: StepKit,
  attemptId: string,
  toolCall: { name: string; arguments: Record<string, unknown> },
  tools?: StepTools,
  /** The worker's check before each call (approval rules, budgets), as a step gets it. */
  gate?: StepProxyOptions["gate"],
) => {
  let waiting: ((record: ToolCallRecord) => void) | undefined;
  const untilResult: number[] = [];
  const events = createEventBus<ChannelEvents>();
  events.subscribe("tool.recorded", (record) => waiting?.(record));
  const step = await openStepProxyClient({
    sandbox: kit.host,
    attemptId,
    uid: kit.uid,
    runDir: kit.runDir,
    workspace: kit.folders.workspace,
    cli: kit.cli,
    secrets: [],
    events,
    signal: new AbortController().signal,
    ...(tools ? { tools } : {}),
    ...(gate ? { gate } : {}),
  });
  const call = async () => {
    const recorded = new Promise<ToolCallRecord>((resolve) => (waiting = resolve));
    const t0 = performance.now();
    const result = await step.client.callTool(toolCall);
    untilResult.push(performance.now() - t0);
    const record = await recorded;
    if (result.isError || record.tool !== toolCall.name)
      throw new Error(
        `the step's ${toolCall.name} failed: ${JSON.stringify(result)}, recorded as ${record.tool}`,
      );
    return result;
  };
  return { call, untilResult, close: step.close };
};
