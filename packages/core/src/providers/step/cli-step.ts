/**
 * One attempt of an agent CLI (Claude Code, and the CLIs that follow it), in the worker or
 * `switchyard run`: the step's sandbox and proxy (step-proxy.ts), a registration with
 * the model gateway (a per-step token bound to the team's endpoint and key for the CLI's
 * vendor), and the CLI started inside the sandbox with no network: behind the loopback
 * forwarder, which listens on 127.0.0.1 in the step's own network namespace and pipes to the
 * gateway's socket bound in, so the CLI reaches the gateway and nothing else. The CLI starts
 * the proxy as its only MCP server. The step fails with the proxy's code, never hangs, when
 * the proxy does not become ready (it fails, is late, or the CLI answers without it) or ends
 * before the answer, whatever the CLI said; only an error the CLI reported itself (the model
 * refused the request, say) wins, since a CLI that leaves takes its MCP server with it, and
 * is given a moment to say so before it is stopped. Cancel and timeout stop the CLI, and
 * closing the sandbox reaps whatever is left. Tokens and cost are the gateway's meter (the
 * CLI's own count when nothing was metered). A suspend (a call held past its hold limit)
 * stops the CLI like a cancel and hands back its session's own files; a resume puts them in
 * the new sandbox's private HOME before the CLI continues the session (session-files.ts,
 * docs/governance.md).
 *
 * What differs per CLI is a CliProvider: the vendor it speaks, how it is launched (argument
 * list, environment, files in its private HOME) and how its output is read.
 */
import { chown, mkdir } from "node:fs/promises";
import path from "node:path";
import { AppError, isAppError } from "../../errors";
import type { AttemptEventBus } from "../../events";
import {
  installLoopbackForwarder,
  loopbackCommand,
  stepBaseUrl,
  type ModelGateway,
  type Vendor,
} from "../../gateway";
import type { BudgetMeter } from "../../governance/budget-meter";
import type { StepChannel } from "../../mcp";
import type { AgentRequest, AgentResult } from "../../workflow/model/engine-ports";
import type { AgentStepEvent } from "../agent-events";
import { outcomeFields, type AgentStepStatus } from "../agent-outcome";
import type { AgentSpawn } from "../agent-process";
import { writeLaunchFiles, type LaunchFile } from "../launch-files";
import type { LocatedAgent } from "../locate-agent";
import { agentAt, agentBind, type StagedAgent } from "./stage-agent";
import { readSessionFiles, writeSessionFiles, type SuspendedSession } from "./session-files";
import { openStepProxy, type StepProxyOptions } from "./step-proxy";
import { stepToolNames } from "./step-tools";

const FORWARDER_INSIDE = "/opt/switchyard/loopback-forwarder.mjs";
const GATEWAY_INSIDE = "/run/switchyard/gateway.sock";
/** The forwarder's port inside the step's own network namespace. */
const FORWARD_PORT = 8089;
/**
 * How long the proxy has to say `ready`, counted from before the CLI starts: the CLI's own
 * start (a second or two, more on a busy host), then the proxy's 10 s.
 */
const CLI_READY_TIMEOUT_MS = 20_000;
/**
 * How long the CLI may take to end by itself once its proxy is in trouble before it is
 * stopped: a CLI leaving after its own error takes its MCP server with it, and says why.
 */
const PROXY_TROUBLE_GRACE_MS = 5_000;
/** How long the channel has, once the CLI has ended, to say why a proxy never became ready. */
const PROXY_VERDICT_MS = 1_000;
/** How long a suspension waits for a CLI that has not yet said its session (see sessionFirst). */
const SESSION_WAIT_MS = 30_000;

/** What a CLI's launch is built from, every path as the CLI sees it. */
export type CliLaunchContext = {
  request: Pick<AgentRequest, "prompt" | "systemPrompt" | "options">;
  agent: LocatedAgent;
  homeDir: string;
  tmpDir: string;
  workspace: string;
  /** The step's proxy as a stdio MCP server: `command args...`. */
  proxy: { command: string; args: string[] };
  /** The model gateway for the CLI's vendor: base URL as the vendor's clients want it, and this step's token. */
  gateway: { baseUrl: string; token: string };
  /** Every tool the proxy offers, by name. */
  toolNames: readonly string[];
  /** The CLI would run as uid 0. */
  runsAsRoot: boolean;
  /**
   * How long one call to the proxy may take before the CLI gives up on it: a call held for a
   * person's approval stays open this long. Unset: the CLI's own default.
   */
  toolTimeoutMs?: number;
  /** Continue this session of the CLI (its files already in HOME) with `request.prompt` as the next turn. */
  resume?: { sessionId: string };
};

export type CliLaunch = {
  argv: string[];
  env: Record<string, string>;
  files: LaunchFile[];
  stdin?: string;
};

export type CliRunResult = AgentResult & {
  status: AgentStepStatus;
  /** The error is one the CLI reported itself (its error result), not the way its process ended. */
  errorReported?: boolean;
  retryable?: boolean;
  turns?: number;
  sessionId?: string;
  costUsd?: number;
  stderrTail: string;
};

export type CliRunInput = {
  launch: CliLaunch;
  spawn: AgentSpawn;
  signal: AbortSignal;
  timeoutMs?: number;
  onEvent?: (event: AgentStepEvent) => void;
  secrets?: readonly string[];
};

export type CliProvider = {
  /** The vendor API the CLI speaks, which the gateway forwards to. */
  vendor: Vendor;
  launch: (context: CliLaunchContext) => CliLaunch;
  run: (input: CliRunInput) => Promise<CliRunResult>;
  /** How long the proxy has to say `ready` when the CLI starts its MCP servers late; 20 s unless told. */
  proxyReadyMs?: number;
  /**
   * The session's own files, as paths below HOME (`home`: the host folder behind it), read
   * once the CLI is stopped: what the step that resumes the session needs, nothing else.
   */
  sessionFiles: (home: string, sessionId: string) => Promise<string[]>;
};

export type CliStepInput = {
  provider: CliProvider;
  request: AgentRequest;
  proxy: Omit<StepProxyOptions, "attemptId" | "secrets" | "events">;
  agent: StagedAgent;
  gateway: ModelGateway;
  /** The team's endpoint and key for the provider's vendor; the key stays outside the sandbox. */
  upstream: { baseUrl: string; apiKey: string };
  /** The attempt's events: the proxy's records and spans, what the agent reports, the gateway's meter. */
  events: AttemptEventBus;
  /**
   * The step's budgets: the gateway asks it before each model request and refuses once a
   * limit is reached; the step then fails with its USER.BUDGET.EXCEEDED, not the CLI's error.
   */
  budget?: Pick<BudgetMeter, "admitModel" | "exceeded">;
  /** How long one call to the proxy may take before the CLI gives up on it (a held call's hold limit and then some). */
  toolTimeoutMs?: number;
  /**
   * Aborted: the step is suspended. The CLI is stopped as on a cancel, its session's files are
   * read from the private HOME before the sandbox goes, and the result carries them
   * (`suspended`) instead of an error.
   */
  suspend?: AbortSignal;
  /**
   * Continue a suspended session: its files go into the new sandbox's private HOME (the step
   * uid's) before the CLI starts, which resumes the session with `prompt` as the next turn
   * (`request.prompt` is not sent).
   */
  resume?: SuspendedSession & { prompt: string };
  /**
   * Keep the session once the CLI has answered (AWF's `conversation:`): its files are read
   * from the private HOME before the sandbox goes, and the result carries them (`kept`), for
   * a later step to resume. A CLI that named no session, or left no files of it, keeps none.
   */
  keep?: boolean;
  /**
   * A conversation's turn: once the CLI ended well its session's files are read, as on a
   * suspend, and handed back (`kept`) for the turn that resumes it with the next message.
   */
  keepSession?: boolean;
};

/**
 * What a CLI step gives back: the agent's result, or, when `suspend` stopped it, no error and
 * the session to resume from (`suspended`); a session that cannot be kept fails the step with
 * EXECUTION.AGENT_CANNOT_RESUME instead.
 */
export type CliStepResult = Omit<AgentResult, "suspended" | "kept" | "chatSession"> & {
  suspended?: SuspendedSession;
  kept?: SuspendedSession;
};

/** The session of a CLI that answered, read from its HOME: none when it named none or left no files. */
const keptSession = async (
  provider: CliProvider,
  home: string,
  sessionId: string | undefined,
): Promise<SuspendedSession | undefined> => {
  if (sessionId === undefined) return undefined;
  const found = await provider.sessionFiles(home, sessionId);
  if (found.length === 0) return undefined;
  try {
    return { sessionId, files: await readSessionFiles(home, found) };
  } catch (error) {
    // Not kept (a link among its files, too large): the step stands, a later one cannot resume it.
    if (isAppError(error)) return undefined;
    throw error;
  }
};

/** What the gateway metered of the attempt's model requests (`model.metered`). */
const meterOf = (events: AttemptEventBus) => {
  const meter = { inputTokens: 0, outputTokens: 0, costUsd: 0, priced: true, requests: 0 };
  const unsubscribe = events.subscribe("model.metered", (event) => {
    meter.requests++;
    meter.inputTokens += event.inputTokens;
    meter.outputTokens += event.outputTokens;
    if (event.costUsd === null) meter.priced = false;
    else meter.costUsd += event.costUsd;
  });
  return { meter, unsubscribe };
};

/** Makes `file` (in a folder of the sandbox) the step uid's, with its folders up to `root`. */
const chownUp = async (file: string, root: string, owner: number) => {
  for (let p = file; p.startsWith(`${root}/`); p = path.dirname(p)) await chown(p, owner, owner);
};

/** The proxy did not become ready, said for the step: the channel's reason (`fatal` keeps its code). */
const proxyNotReady = (reason: unknown) => {
  const why = reason instanceof Error ? reason.message : String(reason);
  const code = isAppError(reason) ? reason.code : "EXECUTION.MCP_PROXY.NOT_READY";
  return new AppError(code, `the step's MCP proxy did not start: ${why}`);
};

/**
 * Why a proxy that was not ready when the CLI ended never was: what the channel says within
 * a moment (its `fatal`, or it closed first), else that it never reached the channel.
 */
const neverReady = async (channel: StepChannel): Promise<AppError | undefined> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), PROXY_VERDICT_MS);
  });
  const said = channel.ready.then(
    () => "ready" as const,
    (error: unknown) => ({ error }),
  );
  try {
    const verdict = await Promise.race([said, late]);
    if (verdict === "ready") return undefined;
    if (verdict !== "late") return proxyNotReady(verdict.error);
    return proxyNotReady(
      channel.connected
        ? "it reached the step channel but did not say ready before the agent ended"
        : "it never reached the step channel before the agent ended",
    );
  } finally {
    clearTimeout(timer);
  }
};

const cannotResume = (message: string) => new AppError("EXECUTION.AGENT_CANNOT_RESUME", message);

/**
 * The suspension as the CLI gets it: once the CLI has said its session. OpenCode names its
 * session with its first streamed part, which can come after its first tool call began: a call
 * held at once would otherwise stop a CLI with no session to resume. Past SESSION_WAIT_MS
 * without one the CLI is stopped anyway (and the step cannot resume).
 */
const sessionFirst = (suspend: AbortSignal | undefined, resumed: boolean) => {
  const gate = new AbortController();
  // A resumed CLI's session is the one it was given.
  let known = resumed;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    clearTimeout(timer);
    gate.abort();
  };
  suspend?.addEventListener(
    "abort",
    () => {
      if (known) stop();
      else timer = setTimeout(stop, SESSION_WAIT_MS);
    },
    { once: true },
  );
  return {
    signal: gate.signal,
    /** The CLI said its session: a suspension waiting for it goes ahead. */
    sessionKnown: () => {
      known = true;
      if (suspend?.aborted) stop();
    },
    dispose: () => clearTimeout(timer),
  };
};

/** A step's result that is only an error: no output, the error's fields, the event that says so. */
const failedWith = (events: AttemptEventBus, error: AppError, output = ""): CliStepResult => {
  void events.emit("agent.reported", { type: "error", code: error.code, message: error.message });
  const { error: text, errorCode, exitCode } = outcomeFields("failure", error, (t) => t);
  return { output, error: text!, errorCode: errorCode!, exitCode: exitCode! };
};

/** Runs one agent CLI step in its sandbox and returns its result. */
export const runCliStep = async (input: CliStepInput): Promise<CliStepResult> => {
  const { provider, events, resume } = input;
  if (resume && (resume.sessionId.trim() === "" || resume.files.length === 0))
    return failedWith(
      events,
      cannotResume(
        `the agent's session cannot be resumed: ${resume.sessionId.trim() === "" ? "no session id was kept" : "none of its files were kept"}`,
      ),
    );
  const request = resume ? { ...input.request, prompt: resume.prompt } : input.request;
  const { meter, unsubscribe } = meterOf(events);
  const registration = input.gateway.register({
    vendor: provider.vendor,
    upstream: input.upstream,
    meter: (event) => void events.emit("model.metered", event),
    label: request.attemptId,
    ...(input.budget ? { admit: () => input.budget!.admitModel() } : {}),
  });
  // The proxy dies, or never says ready: the CLI is stopped and the step fails with why.
  const proxyTrouble = new AbortController();
  let trouble: AppError | undefined;
  let ready = false;
  let answered = false;
  const stopSoon = () => setTimeout(() => proxyTrouble.abort(), PROXY_TROUBLE_GRACE_MS).unref();
  const step = await openStepProxy({
    readyTimeoutMs: input.provider.proxyReadyMs ?? CLI_READY_TIMEOUT_MS,
    ...input.proxy,
    attemptId: request.attemptId,
    secrets: [input.upstream.apiKey, registration.token],
    events,
  }).catch(async (error: unknown) => {
    unsubscribe();
    await registration.revoke();
    throw error;
  });
  try {
    const { sandbox } = step;
    step.channel.ready.then(
      () => {
        ready = true;
      },
      (error: unknown) => {
        trouble ??= proxyNotReady(error);
        stopSoon();
      },
    );
    void step.channel.closed.then(({ reason }) => {
      if (answered) return;
      trouble ??= new AppError(
        "EXECUTION.MCP_PROXY.UNAVAILABLE",
        `the step's MCP proxy ended before the agent answered (${reason})`,
      );
      stopSoon();
    });

    const agentBound = agentBind(input.agent);
    const binds = [...step.binds, agentBound];
    // No network inside: the gateway's socket and the forwarder in front of it. Unconfined
    // (level none) the CLI shares the host's network and uses the gateway's TCP port.
    let origin = input.gateway.origin;
    let wrap = (argv: string[]) => argv;
    if (sandbox.level !== "none" && input.gateway.socketPath) {
      const forwarder = await installLoopbackForwarder(sandbox.folders.root);
      binds.push({ path: forwarder, mode: "ro", target: FORWARDER_INSIDE });
      binds.push({ path: input.gateway.socketPath, mode: "rw", target: GATEWAY_INSIDE });
      origin = `http://127.0.0.1:${FORWARD_PORT}`;
      wrap = (argv) =>
        loopbackCommand({
          script: FORWARDER_INSIDE,
          socketPath: GATEWAY_INSIDE,
          listenPort: FORWARD_PORT,
          command: argv,
          node: process.execPath,
        });
    }
    if (!origin)
      throw new AppError(
        "SYSTEM.CONFIG",
        "the model gateway has no TCP listener for an unconfined step",
      );

    const launch = provider.launch({
      request,
      agent: agentAt(input.agent, sandbox.pathInside(agentBound)),
      homeDir: sandbox.paths.home,
      tmpDir: sandbox.paths.tmp,
      workspace: sandbox.paths.workspace,
      proxy: { command: step.argv[0]!, args: step.argv.slice(1) },
      gateway: { baseUrl: stepBaseUrl(provider.vendor, origin), token: registration.token },
      toolNames: stepToolNames(input.proxy.tools),
      runsAsRoot: (sandbox.uid ?? process.getuid?.() ?? 0) === 0,
      ...(input.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: input.toolTimeoutMs }),
      ...(resume ? { resume: { sessionId: resume.sessionId } } : {}),
    });
    await mkdir(sandbox.folders.home, { recursive: true });
    if (resume)
      try {
        await writeSessionFiles(sandbox.folders.home, resume.files, step.owner);
      } catch (error) {
        if (isAppError(error)) return failedWith(events, error);
        throw error;
      }
    await writeLaunchFiles(launch.files, { home: sandbox.folders.home });
    for (const file of launch.files)
      await chownUp(
        path.join(sandbox.folders.home, file.relativePath),
        sandbox.folders.home,
        step.owner,
      );

    // W3C trace context for CLIs that continue it (an OpenTelemetry-instrumented CLI reads
    // TRACEPARENT); harmless to the others.
    const { traceparent } = input.proxy;
    const spawn: AgentSpawn = ({ argv, env }) =>
      sandbox.start(
        { argv: wrap(argv), env: traceparent ? { ...env, TRACEPARENT: traceparent } : env, binds },
        {},
      );
    const suspension = sessionFirst(input.suspend, resume !== undefined);
    const result = await provider
      .run({
        launch,
        spawn,
        signal: AbortSignal.any([request.signal, proxyTrouble.signal, suspension.signal]),
        ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
        secrets: [input.upstream.apiKey, registration.token],
        onEvent: (event) => {
          if (event.type === "final") answered = true;
          if (event.type === "session") suspension.sessionKnown();
          void events.emit("agent.reported", event);
        },
      })
      .finally(suspension.dispose);
    await registration.revoke();
    const sessionFilesOf = async (sessionId: string) => {
      const found = await provider.sessionFiles(sandbox.folders.home, sessionId);
      if (found.length === 0)
        return cannotResume(
          `the agent's CLI left no files of its session ${sessionId} to resume from`,
        );
      try {
        return await readSessionFiles(sandbox.folders.home, found);
      } catch (error) {
        if (isAppError(error)) return error;
        throw error;
      }
    };
    // Stopped by the suspend (not by a cancel, not after its answer): the session's files,
    // read now that the CLI and everything it started are gone, before the sandbox is removed.
    if (input.suspend?.aborted && !request.signal.aborted && result.status === "cancelled") {
      const sessionId = result.sessionId;
      if (sessionId === undefined)
        return failedWith(
          events,
          cannotResume(
            "the agent was suspended before its CLI reported a session id, so there is no session to resume",
          ),
          result.output,
        );
      const files = await sessionFilesOf(sessionId);
      if (isAppError(files)) return failedWith(events, files, result.output);
      // What the first part of the attempt spent goes with it, for the part that resumes it.
      return {
        output: result.output,
        sessionId,
        suspended: { sessionId, files },
        ...(meter.requests > 0
          ? {
              tokensInput: meter.inputTokens,
              tokensOutput: meter.outputTokens,
              tokensUsed: meter.inputTokens + meter.outputTokens,
              ...(meter.priced ? { costUsd: meter.costUsd } : {}),
            }
          : {}),
      };
    }
    const metered = meter.requests > 0;
    const tokens = metered
      ? {
          tokensInput: meter.inputTokens,
          tokensOutput: meter.outputTokens,
          tokensUsed: meter.inputTokens + meter.outputTokens,
        }
      : {
          ...(result.tokensInput === undefined ? {} : { tokensInput: result.tokensInput }),
          ...(result.tokensOutput === undefined ? {} : { tokensOutput: result.tokensOutput }),
          ...(result.tokensUsed === undefined ? {} : { tokensUsed: result.tokensUsed }),
        };
    // A cancel is the person's, and an error the CLI reported is the model's or the CLI's.
    // Else the proxy's trouble fails the step, as does a CLI that answered (or blamed its
    // proxy) while the proxy was never ready; a CLI that failed before it started its proxy
    // keeps its own error.
    // A CLI that died by itself without a result (killed, crashed) after its proxy was ready
    // took the proxy in its sandbox along: the proxy's end is then no cause, whichever of the
    // two ends was seen first. A budget that refused a model request is the step's failure,
    // whatever the CLI made of the refusal.
    let fault: AppError | undefined = request.signal.aborted ? undefined : input.budget?.exceeded();
    // A resume the CLI refused (the session not found, its files unreadable) ends before any
    // model request: the step cannot resume, whatever the CLI's own words.
    if (
      !fault &&
      resume &&
      result.status === "failure" &&
      meter.requests === 0 &&
      !request.signal.aborted
    )
      fault = cannotResume(
        `the agent's CLI did not resume its session ${resume.sessionId}: ${result.error ?? "it ended without a word"}`,
      );
    const diedByItself =
      ready && result.errorCode === "EXECUTION.AGENT_NO_RESULT" && !proxyTrouble.signal.aborted;
    if (!fault && !request.signal.aborted && !result.errorReported && !diedByItself) {
      const blamesProxy = result.errorCode?.startsWith("EXECUTION.MCP_PROXY.") === true;
      const withoutProxy = !ready && (answered || blamesProxy);
      fault = trouble ?? (withoutProxy ? await neverReady(step.channel) : undefined);
    }
    let outcome: Pick<AgentResult, "error" | "errorCode" | "exitCode">;
    if (fault) {
      const { error, errorCode, exitCode } = outcomeFields("failure", fault, (text) => text);
      outcome = { error: error!, errorCode: errorCode!, exitCode: exitCode! };
      void events.emit("agent.reported", {
        type: "error",
        code: fault.code,
        message: fault.message,
      });
    } else
      outcome = {
        ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
        ...(result.error === undefined ? {} : { error: result.error }),
        ...(result.errorCode === undefined ? {} : { errorCode: result.errorCode }),
      };
    const kept =
      input.keep &&
      !input.keepSession &&
      !fault &&
      result.status === "success" &&
      outcome.error === undefined
        ? await keptSession(provider, sandbox.folders.home, result.sessionId)
        : undefined;
    const ended = {
      output: result.output,
      ...tokens,
      ...(metered && meter.priced ? { costUsd: meter.costUsd } : {}),
      ...(result.sessionId === undefined ? {} : { sessionId: result.sessionId }),
      ...outcome,
      ...(kept ? { kept } : {}),
    };
    if (!input.keepSession || outcome.error !== undefined || request.signal.aborted) return ended;
    // A conversation's turn: the next one resumes this session, so it must be kept.
    if (result.sessionId === undefined)
      return failedWith(
        events,
        cannotResume(
          "the agent's CLI reported no session id, so the conversation cannot go on to its next turn",
        ),
        result.output,
      );
    const files = await sessionFilesOf(result.sessionId);
    if (isAppError(files)) return failedWith(events, files, result.output);
    return { ...ended, kept: { sessionId: result.sessionId, files } };
  } finally {
    await registration.revoke();
    unsubscribe();
    await step.close();
  }
};
