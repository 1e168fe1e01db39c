/**
 * `switchyard run <file> [--input k=v]...`: runs a workflow locally with no services.
 * Shell steps and hooks run in the step sandbox over the workspace (the current folder by
 * default; see run-options.ts for the level, the workspace and the network), with only the
 * variables the workflow passes; sub-workflows are found next to the file, and every file of the
 * workflow is read without following symlinks (workflow-folder.ts); events stream to stderr,
 * and each step attempt's (masked) output to stdout and stderr as the attempt ends, through
 * the engine's step recorder (terminal-recorder.ts). A required input not given is asked for
 * at the terminal as AWF asks (input-prompt.ts), or refused without one. Exits 0 on success, else the run's exit
 * status or the taxonomy code of its error; Ctrl-C cancels the run (stdin end, SIGTERM, SIGKILL).
 * Agent steps (claude, openai_compatible) run as in the worker: see local-agents.ts; their
 * skills are found in the person's folders as AWF finds them (local-skills.ts), a
 * `continue_from` step resumes the session its step kept in this run, and a `mode:
 * conversation` step is a chat at the terminal (local-chat.ts). Operation states run over the
 * person's own network (local-operations.ts); `plugin_tools` name the run's local connectors
 * (local-connectors.ts).
 */
import { folderTemplates } from "./folder-templates";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { AppError, surfaceOf } from "@switchyard/core/errors";
import { Scrubber } from "@switchyard/core/secrets";
import {
  literalFileReferences,
  missingRequiredInputs,
  resolveInputs,
  runWorkflow,
  validateWorkflow,
  type RunEvent,
  type SkillFinder,
} from "@switchyard/core/workflow";
import { openChatInput } from "./chat-input";
import { collectInputs } from "./input-prompt";
import { environmentVariables, folderResolver, localProcessRunner, runFiles } from "./local-ports";
import { localAgents } from "./local-agents";
import {
  CONNECTORS_FILE,
  parseLocalConnectors,
  type LocalConnectors,
} from "./local-connectors-file";
import {
  connectorsNamed,
  declaredCatalog,
  openLocalConnectors,
  withoutConnectors,
} from "./local-connectors";
import { localOperations } from "./local-operations";
import { localSkills } from "./local-skills";
import type { Sandbox } from "@switchyard/core/sandbox";
import { openLocalSandbox, stepUidBaseFrom } from "./local-sandbox";
import { parseRunOptions, RUN_USAGE, type RunOptions } from "./run-options";
import { openTerminalReader } from "./terminal-reader";
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
  // Skills are found there and in the person's own skill folders (local-skills.ts).
  const skills = localSkills(folder, env, process.cwd());
  try {
    return await runFromFolder(file, folder, skills, options, io, env);
  } finally {
    skills.close();
    folder.close();
  }
};

const runFromFolder = async (
  file: string,
  folder: WorkflowFolder,
  skills: SkillFinder,
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
  const declared = readConnectors(folder, options, env);
  const templates = folderTemplates(folder);
  const checked = await validateWorkflow(source, file, {
    files,
    skills,
    resolver,
    templates,
    catalog: declaredCatalog(declared),
  });
  if (!checked.workflow) return refuseWorkflow(file, checked.errors, io);
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
  // The scripts and prompts the workflow and its sub-workflows name literally are read now,
  // before any step, and served as read from then on; readFile reads when used.
  for (const wf of [checked.workflow, ...resolver.resolved()])
    for (const ref of literalFileReferences(wf)) if (ref.key !== "readFile") hold(ref.path);
  folder.snapshot();
  const given = await inputsFromTerminal(checked.workflow.inputs, options.inputs, io);
  if (given === undefined) return 1;
  const inputs = await resolveInputs(checked.workflow.inputs, given, {
    fileExists: (p) => existsSync(path.resolve(p)),
  });
  if (inputs.errors.length > 0) {
    for (const e of inputs.errors) io.err(`${e.code} ${e.message}\n`);
    return 1;
  }
  // The run once its sandbox is open: connectors started and checked, then the steps.
  const workflow = checked.workflow;
  const runInSandbox = async (sandbox: Sandbox, controller: AbortController) => {
    const named = connectorsNamed(
      [workflow, ...resolver.resolved()].flatMap((wf) =>
        [...wf.states.values()].map((state) =>
          state.kind === "agent" ? state.mcpProxy : undefined,
        ),
      ),
    );
    const scrubber = new Scrubber();
    const connectors =
      declared && named.length > 0
        ? openLocalConnectors({ declared, run: sandbox, network: options.network, scrubber })
        : withoutConnectors();
    // Each server the steps name is started once now, and the tools they expose checked.
    let refused: number | undefined;
    try {
      // A stop signal while they start ends the wait: closing them stops what is starting.
      const catalog = await Promise.race([connectors.list(named), stopped(controller.signal)]);
      // The sub-workflows' steps too, each at its own file's lines.
      for (const wf of [workflow, ...resolver.resolved()]) {
        const top = wf === workflow;
        const text = top ? source : folder.read(path.relative(folder.dir, wf.file));
        if (text === undefined) continue;
        const listed = await validateWorkflow(text, wf.file, {
          ...(top ? { files } : {}),
          skills,
          templates,
          catalog,
        });
        refused = listed.workflow ? undefined : refuseWorkflow(wf.file, listed.errors, io);
        if (refused !== undefined) break;
      }
    } catch (error) {
      io.err(`${error instanceof AppError ? `${error.code} ${error.message}` : String(error)}\n`);
      refused = error instanceof AppError ? error.exitCode : 4;
    }
    if (refused !== undefined) {
      await connectors.close().catch(() => undefined);
      return refused;
    }
    // The sandbox's temp folders and a lent workspace are given back in `finally`: neither a
    // closed pipe (`| head`) nor a closed terminal may end the process before it runs.
    const onWriteError = () => undefined;
    // Ctrl+C while a conversation waits for a message cancels the run, as it does elsewhere.
    const chatInput = openChatInput(process.stdin, process.stderr, onSignal);
    const agents = localAgents({
      run: sandbox,
      env,
      io,
      scrubber,
      stepConnectors: connectors.stepConnectors,
      chatInput,
    });
    const operations = localOperations({
      workspace: sandbox.folders.workspace,
      network: options.network,
      env,
      scrubber,
      io,
    });
    process.stdout.on("error", onWriteError);
    process.stderr.on("error", onWriteError);
    try {
      const outcome = await runWorkflow(workflow, {
        runProcess: localProcessRunner({ sandbox, network: options.network }),
        signal: controller.signal,
        scrubber,
        agents,
        operations: operations.port,
        recorder: terminalRecorder(io),
        inputs: inputs.values,
        files,
        skills,
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
      chatInput.close();
      await agents.close().catch(() => undefined);
      await connectors.close().catch(() => undefined);
      await operations.close().catch(() => undefined);
      process.stdout.off("error", onWriteError);
      process.stderr.off("error", onWriteError);
    }
  };
  const sandbox = await openLocalSandbox({
    mode: options.sandbox,
    workspace: options.workspace,
    stepUidBase: stepUidBaseFrom(env),
    network: options.network,
    io,
  });
  // From here a stop signal cancels the run, and `finally` gives back the sandbox's temp
  // folders and a lent workspace: also while the connectors start, which can take a while.
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
  try {
    return await runInSandbox(sandbox, controller);
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    await sandbox.close();
  }
};

/** Rejects with EXECUTION.CANCELLED once `signal` aborts. */
const stopped = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    const stop = () =>
      reject(new AppError("EXECUTION.CANCELLED", "stopped while the connectors were starting"));
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });

/** Prints a workflow's errors as `file:line:column: CODE message` and answers the exit code. */
const refuseWorkflow = (file: string, errors: readonly AppError[], io: Io): number => {
  for (const e of errors)
    io.err(`${file}:${e.location?.line ?? 1}:${e.location?.column ?? 1}: ${e.code} ${e.message}\n`);
  return errors[0]?.exitCode ?? 2;
};

/** The --connectors file, else .switchyard/connectors.json next to the workflow when there is one. */
const readConnectors = (
  folder: WorkflowFolder,
  options: RunOptions,
  env: NodeJS.ProcessEnv,
): LocalConnectors | undefined => {
  if (options.connectors === undefined) {
    const text = folder.read(CONNECTORS_FILE);
    return text === undefined
      ? undefined
      : parseLocalConnectors(text, path.join(folder.dir, CONNECTORS_FILE), env);
  }
  if (!existsSync(options.connectors))
    throw new AppError(
      "USER.INPUT.MISSING_FILE",
      `connectors file ${options.connectors} not found`,
    );
  return parseLocalConnectors(readFileSync(options.connectors, "utf8"), options.connectors, env);
};

/**
 * The --input values, with what the person types for the inputs not given when a required
 * one is missing and stdin is a terminal; undefined (after AWF's error line) when there is no
 * terminal to ask at or the person cancels.
 */
const inputsFromTerminal = async (
  defs: Parameters<typeof collectInputs>[0],
  given: Record<string, string>,
  io: Io,
): Promise<Record<string, string> | undefined> => {
  if (missingRequiredInputs(defs, given).length === 0) return given;
  const reader = process.stdin.isTTY
    ? openTerminalReader(process.stdin, process.stderr)
    : undefined;
  try {
    return await collectInputs(
      defs,
      given,
      reader ? { read: reader.read, write: (text) => io.err(text) } : undefined,
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    io.err(`Error: ${error.userMessage}\n`);
    return undefined;
  } finally {
    reader?.close();
  }
};
