/**
 * `switchyard run <file> [--input k=v]...`: runs a workflow locally with no services.
 * Shell steps and hooks run in the step sandbox over the workspace (the current folder by
 * default; see run-options.ts for the level, the workspace and the network), with only the
 * variables the workflow passes; sub-workflows are found next to the file, and every file of the
 * workflow is read without following symlinks (workflow-folder.ts); events stream to stderr,
 * and each step attempt's (masked) output to stdout and stderr as the attempt ends, through
 * the engine's step recorder (terminal-recorder.ts). Exits 0 on success, else the run's exit
 * status or the taxonomy code of its error; Ctrl-C cancels the run (stdin end, SIGTERM, SIGKILL).
 * Agent steps (claude, openai_compatible) run as in the worker: see local-agents.ts.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { AppError, surfaceOf } from "@switchyard/core/errors";
import { Scrubber } from "@switchyard/core/secrets";
import {
  literalFileReferences,
  resolveInputs,
  runWorkflow,
  validateWorkflow,
  type RunEvent,
} from "@switchyard/core/workflow";
import { environmentVariables, folderResolver, localProcessRunner, runFiles } from "./local-ports";
import { localAgents } from "./local-agents";
import { openLocalSandbox, stepUidBaseFrom } from "./local-sandbox";
import { parseRunOptions, RUN_USAGE, type RunOptions } from "./run-options";
import { terminalRecorder } from "./terminal-recorder";
import { openWorkflowFolder, type WorkflowFolder } from "./workflow-folder";
import type { Io } from "./validate-command";

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

const describe = (e: RunEvent): string | undefined => {
  switch (e.type) {
    case "run.started":
    case "run.resumed":
      return `● ${e.type === "run.started" ? "run" : "resume"} ${e.workflow} (${e.runId})`;
    case "state.started":
      return `▶ ${e.state} [${e.kind}]`;
    case "state.finished":
      return `${e.status === "success" ? "✓" : "✗"} ${e.state} ${e.status}${e.exitCode === null ? "" : ` (exit ${e.exitCode})`}${e.attempts > 1 ? ` after ${e.attempts} attempts` : ""}`;
    case "step.retry":
      return `↻ ${e.state} attempt ${e.attempt} failed (exit ${e.exitCode}); retrying in ${e.delayMs} ms`;
    case "hook.finished":
      return `  hook ${e.hook}${e.state ? ` of ${e.state}` : ""} exit ${e.exitCode}`;
    case "log":
      return `  ${e.state ? `[${e.state}] ` : ""}${e.message}`;
    case "run.finished":
      return `● ${e.status}${e.errorCode ? ` ${e.errorCode}: ${e.errorMessage ?? ""}` : ""}`;
    default: {
      const never: never = e;
      return never;
    }
  }
};

export const runRun = async (argv: string[], io: Io, env: NodeJS.ProcessEnv): Promise<number> => {
  const options = parseRunOptions(argv, env, process.cwd());
  if (options.help) {
    io.out(`${RUN_USAGE}\n`);
    return 0;
  }
  const file = options.file;
  if (!file) throw new AppError("USER.INPUT.VALIDATION_FAILED", RUN_USAGE);
  if (!existsSync(file))
    throw new AppError("USER.INPUT.MISSING_FILE", `workflow file ${file} not found`);
  // Held open for the whole run: steps may write this folder, so it is never read by path again.
  const folder = openWorkflowFolder(path.dirname(path.resolve(file)));
  try {
    return await runFromFolder(file, folder, options, io, env);
  } finally {
    folder.close();
  }
};

const runFromFolder = async (
  file: string,
  folder: WorkflowFolder,
  options: RunOptions,
  io: Io,
  env: NodeJS.ProcessEnv,
): Promise<number> => {
  const source = folder.read(path.basename(file));
  if (source === undefined)
    throw new AppError("USER.INPUT.MISSING_FILE", `workflow file ${file} is not a file`);
  // The folder is the workflow file's own, so the bundle's paths are the folder's.
  const { files, hold } = runFiles(folder, path.basename(file));
  const resolver = folderResolver(folder);
  const checked = await validateWorkflow(source, file, { files, resolver });
  if (!checked.workflow) {
    for (const e of checked.errors)
      io.err(
        `${file}:${e.location?.line ?? 1}:${e.location?.column ?? 1}: ${e.code} ${e.message}\n`,
      );
    return checked.errors[0]?.exitCode ?? 2;
  }
  // Calls under approval rules wait for a person's answer, which only a server gives: refused
  // here before any step runs rather than run unapproved.
  for (const wf of [checked.workflow, ...resolver.resolved()])
    for (const state of wf.states.values())
      if (state.kind === "agent" && state.mcpProxy?.approve?.length) {
        io.err(
          `${state.source.path}:${state.source.line ?? 1}:${state.source.column ?? 1}: USER.UNSUPPORTED_FEATURE "${state.name}" has approval rules (mcp_proxy.approve): its calls wait for a person's answer, which a Switchyard server gives (docs/governance.md); switchyard run does not run them unapproved\n`,
        );
        return 1;
      }
  // A conversation waits for a person's messages, which a server takes as a chat.
  for (const wf of [checked.workflow, ...resolver.resolved()])
    for (const state of wf.states.values())
      if (state.kind === "agent" && state.mode === "conversation") {
        io.err(
          `${file}:${state.source.line ?? 1}:${state.source.column ?? 1}: USER.UNSUPPORTED_FEATURE ${state.source.path}: "${state.name}" is a conversation (mode: conversation): its turns wait for a person's messages, which a Switchyard server takes as a chat on the run's page (docs/workflows.md); switchyard run does not run it\n`,
        );
        return 1;
      }
  // The scripts and prompts the workflow and its sub-workflows name literally are read now,
  // before any step, and served as read from then on; readFile reads when used.
  for (const wf of [checked.workflow, ...resolver.resolved()])
    for (const ref of literalFileReferences(wf)) if (ref.key !== "readFile") hold(ref.path);
  folder.snapshot();
  const inputs = await resolveInputs(checked.workflow.inputs, options.inputs, {
    fileExists: (p) => existsSync(path.resolve(p)),
  });
  if (inputs.errors.length > 0) {
    for (const e of inputs.errors) io.err(`${e.code} ${e.message}\n`);
    return 1;
  }
  const sandbox = await openLocalSandbox({
    mode: options.sandbox,
    workspace: options.workspace,
    stepUidBase: stepUidBaseFrom(env),
    network: options.network,
    io,
  });
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  // The sandbox's temp folders and a lent workspace are given back in `finally`: neither a
  // closed pipe (`| head`) nor a closed terminal may end the process before it runs.
  const onWriteError = () => undefined;
  const scrubber = new Scrubber();
  const agents = localAgents({ run: sandbox, env, io, scrubber });
  for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
  process.stdout.on("error", onWriteError);
  process.stderr.on("error", onWriteError);
  try {
    const outcome = await runWorkflow(checked.workflow, {
      runProcess: localProcessRunner({ sandbox, network: options.network }),
      signal: controller.signal,
      scrubber,
      agents,
      recorder: terminalRecorder(io),
      inputs: inputs.values,
      files,
      resolver,
      variables: environmentVariables(env),
      events: (e) => {
        const text = describe(e);
        if (text) io.err(`${text}\n`);
      },
    });
    if (outcome.status === "succeeded") return 0;
    if (outcome.exitStatus !== undefined) return outcome.exitStatus;
    return surfaceOf(outcome.errorCode ?? "EXECUTION.COMMAND_FAILED").exit;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    await agents.close().catch(() => undefined);
    await sandbox.close();
    process.stdout.off("error", onWriteError);
    process.stderr.off("error", onWriteError);
  }
};
