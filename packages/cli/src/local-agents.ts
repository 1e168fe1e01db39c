/**
 * Agent steps for `switchyard run`, on the worker's path: each attempt gets a sandbox session
 * of its own inside the run's (same level, uid and workspace), with this CLI's own
 * `mcp-serve` as the step's proxy, so tools are the confined built-ins here too.
 * - agent CLIs (`claude`, see CLI_PROVIDERS) from the agents folder (SWITCHYARD_AGENTS_DIR or
 *   ~/.cache/switchyard/agents) reach the model only through an in-process model gateway:
 *   the person's key for the vendor (ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL; see
 *   VENDOR_ENV) stays in this process, the CLI in the sandbox gets a per-step token.
 * - `openai_compatible`: this process drives the Chat Completions loop against the step's
 *   `options.base_url`, with `options.api_key` or OPENAI_API_KEY.
 * Tool calls and the agent's text are printed on stderr as they happen; keys are scrubbed
 * from everything printed.
 */
import { chmod, lstat, mkdir, mkdtemp, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AppError } from "@switchyard/core/errors";
import { startModelGateway, type ModelGateway } from "@switchyard/core/gateway";
import type { ToolCallRecord } from "@switchyard/core/mcp";
import {
  agentInPlace,
  defaultModelEndpoint,
  findBuiltCli,
  openAgentStepSession,
  CLI_PROVIDERS,
  runCliStep,
  stepToolsOf,
  VENDOR_ENV,
  type AgentId,
  type CliProviderEntry,
  runOpenAiCompatible,
  stageAgent,
  stageBuiltCli,
  toolProxyFromClient,
  type AgentStepEvent,
  type BuiltCli,
  type StagedAgent,
} from "@switchyard/core/providers";
import type { SandboxSession } from "@switchyard/core/sandbox";
import type { Scrubber } from "@switchyard/core/secrets";
import type { AgentExecutor, AgentRequest, AgentResult } from "@switchyard/core/workflow";
import type { Io } from "./validate-command";

/** The built CLI next to these sources or this bundle: packages/cli/dist. */
const CLI_DIST = fileURLToPath(new URL("../dist/", import.meta.url));

export type LocalAgentsOptions = {
  /** The run's sandbox session: each attempt's session is opened inside it. */
  run: SandboxSession;
  env: NodeJS.ProcessEnv;
  io: Io;
  scrubber: Scrubber;
};

const short = (value: unknown, max = 100) => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

const printer = (io: Io, scrubber: Scrubber, state: string) => ({
  record: (r: ToolCallRecord) =>
    io.err(scrubber.scrub(`  ⚒ [${state}] ${r.tool}${r.is_error ? " ✗" : ""} ${short(r.arguments)} (${r.duration_ms} ms)\n`)),
  event: (e: AgentStepEvent) => {
    if (e.type === "text" && e.text.trim()) io.err(scrubber.scrub(`  … [${state}] ${short(e.text.trim(), 400)}\n`));
    if (e.type === "tool_use" && e.native) io.err(scrubber.scrub(`  ⚒ [${state}] ${e.name} (the CLI's own) ${short(e.arguments)}\n`));
    if (e.type === "retry") io.err(scrubber.scrub(`  ↻ [${state}] model request ${e.attempt} failed (${e.message}); again in ${e.delayMs} ms\n`));
    if (e.type === "error") io.err(scrubber.scrub(`  ✗ [${state}] ${e.code}: ${e.message}\n`));
  },
});

const stringOption = (options: Record<string, unknown>, name: string) => {
  const value = options[name];
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string")
    throw new AppError("USER.INPUT.VALIDATION_FAILED", `options.${name} must be a string`, { location: { path: `options.${name}` } });
  return value;
};

/**
 * Where copies a step uid can enter are staged: `<tmp>/switchyard-agents`, kept between runs,
 * while it is a folder of this user's that nobody else may write; otherwise (another local
 * user made it first, and could have planted a copy that root would start) a fresh folder
 * for this run only, removed at its end.
 */
const openStageRoot = async (): Promise<{ dir: string; temporary: boolean }> => {
  const shared = path.join(tmpdir(), "switchyard-agents");
  await mkdir(shared, { mode: 0o711 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  const info = await lstat(shared);
  if (info.isDirectory() && info.uid === process.getuid?.() && (info.mode & 0o022) === 0) {
    await chmod(shared, 0o711);
    return { dir: shared, temporary: false };
  }
  const own = await mkdtemp(path.join(tmpdir(), "switchyard-agents-"));
  await chmod(own, 0o711);
  return { dir: own, temporary: true };
};

export const localAgents = (options: LocalAgentsOptions): AgentExecutor & { close: () => Promise<void> } => {
  const { run, env, io, scrubber } = options;
  const agentsDir = env.SWITCHYARD_AGENTS_DIR || path.join(homedir(), ".cache/switchyard/agents");
  // A step uid of its own (as root) cannot enter a private folder: stage copies it can.
  let stageRoot: Promise<{ dir: string; temporary: boolean }> | undefined;
  const stageDir = async () => (await (stageRoot ??= openStageRoot())).dir;
  let gateway: Promise<ModelGateway> | undefined;
  let cli: Promise<BuiltCli> | undefined;
  const agents = new Map<AgentId, Promise<StagedAgent>>();

  const builtCli = () => {
    cli ??= findBuiltCli(CLI_DIST).then(async (found) => {
      if (run.uid === undefined) return found;
      return stageBuiltCli(found, await stageDir());
    });
    return cli;
  };
  const proxyOptions = async (request: AgentRequest, onRecord: (r: ToolCallRecord) => void) => ({
    sandbox: run.host,
    uid: run.uid,
    runDir: run.folders.root,
    workspace: run.folders.workspace,
    cli: await builtCli(),
    onRecord,
    onSpan: () => undefined,
    tools: stepToolsOf(request.mcpProxy),
    attemptId: `a${request.attempt}-${Math.random().toString(36).slice(2, 8)}`,
  });

  const firstOf = (names: readonly string[]) => names.map((n) => env[n]).find((v) => v !== undefined && v !== "");

  const runCli = async (entry: CliProviderEntry, request: AgentRequest, print: ReturnType<typeof printer>): Promise<AgentResult> => {
    const vendor = entry.cli.vendor;
    const names = VENDOR_ENV[vendor];
    const apiKey = firstOf(names.key);
    if (!apiKey)
      throw new AppError(
        "USER.PROVIDER.NOT_CONFIGURED",
        `"${request.stateName}" runs ${entry.label}: set ${names.key.join(" or ")} (and ${names.baseUrl.join(" or ")} for another endpoint)`,
        { location: { path: `states.${request.stateName}.provider` } },
      );
    scrubber.add(apiKey);
    let agent = agents.get(entry.agent);
    if (!agent) {
      agent = Promise.resolve().then(() =>
        run.uid === undefined ? agentInPlace(agentsDir, entry.agent) : stageDir().then((dir) => stageAgent(agentsDir, entry.agent, dir)),
      );
      agents.set(entry.agent, agent);
      agent.catch(() => agents.delete(entry.agent));
    }
    gateway ??= startModelGateway({ tcp: true, socketPath: path.join(run.folders.root, "gateway.sock") });
    const { attemptId, ...proxy } = await proxyOptions(request, print.record);
    return runCliStep({
      provider: entry.cli,
      request: { ...request, attemptId },
      proxy,
      agent: await agent,
      gateway: await gateway,
      upstream: { baseUrl: firstOf(names.baseUrl) || defaultModelEndpoint(vendor)!, apiKey },
      onEvent: print.event,
    });
  };

  const runOpenAi = async (request: AgentRequest, print: ReturnType<typeof printer>): Promise<AgentResult> => {
    const apiKey = stringOption(request.options, "api_key") ?? env.OPENAI_API_KEY;
    if (apiKey) scrubber.add(apiKey);
    const baseUrl = stringOption(request.options, "base_url");
    const step = await openAgentStepSession({ ...(await proxyOptions(request, print.record)), secrets: apiKey ? [apiKey] : [], signal: request.signal });
    try {
      const result = await runOpenAiCompatible({
        request,
        tools: toolProxyFromClient(step.client),
        // The person's own run: the endpoint the workflow names is theirs to call.
        allowedEndpoints: baseUrl ? [baseUrl] : [],
        ...(apiKey ? { apiKey } : {}),
        onEvent: print.event,
      });
      const { status: _status, retryable: _retryable, turns: _turns, ...agentResult } = result;
      return agentResult;
    } finally {
      await step.close();
    }
  };

  return {
    execute: async (request) => {
      const print = printer(io, scrubber, request.stateName);
      try {
        if (request.provider === "openai_compatible") return await runOpenAi(request, print);
        if (Object.hasOwn(CLI_PROVIDERS, request.provider)) return await runCli(CLI_PROVIDERS[request.provider]!, request, print);
        throw new AppError(
          "EXECUTION.AGENT_UNAVAILABLE",
          `provider "${request.provider}" of "${request.stateName}" does not run here (${[...Object.keys(CLI_PROVIDERS), "openai_compatible"].join(", ")} do)`,
        );
      } catch (error) {
        throw scrubber.scrubError(error);
      }
    },
    close: async () => {
      const started = gateway;
      gateway = undefined;
      if (started) await (await started).close();
      const staged = await stageRoot?.catch(() => undefined);
      if (staged?.temporary) await rm(staged.dir, { recursive: true, force: true });
    },
  };
};
