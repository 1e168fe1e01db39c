/**
 * Agent steps for `switchyard run`: core's agent executor (as in the worker), each attempt in a sandbox
 * of its own inside the run's (same level, uid and workspace), with this CLI's own
 * `mcp-serve` as the step's proxy, so tools are the confined built-ins here too.
 * - agent CLIs (`claude`, see CLI_PROVIDERS) from the agents folder (SWITCHYARD_AGENTS_DIR or
 *   ~/.cache/switchyard/agents) reach the model only through an in-process model gateway:
 *   the person's key for the vendor (ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL; see
 *   VENDOR_ENV) stays in this process, the CLI in the sandbox gets a per-step token.
 * - `openai_compatible`: this process drives the Chat Completions loop against the step's
 *   `options.base_url`, with `options.api_key` or OPENAI_API_KEY.
 * A step's connector tools are the run's local connectors (local-connectors.ts).
 * Tool calls and the agent's text are printed on stderr as they happen; keys are scrubbed
 * from everything printed. A session-tracked step's kept session (`conversation:`) is held in
 * memory for the run, under the key the worker stores it by, for a `continue_from` step; a
 * `mode: conversation` step is a chat in the terminal (local-chat.ts). A CLI installed at
 * another version than scripts/agents.json pins runs all the same, with a warning line.
 */
import { chmod, lstat, mkdir, mkdtemp, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AppError } from "@switchyard/core/errors";
import { startModelGateway, type ModelGateway } from "@switchyard/core/gateway";
import type { ToolCallRecord } from "@switchyard/core/mcp";
import {
  createAgentExecutor,
  createAgentStaging,
  defaultModelEndpoint,
  VENDOR_ENV,
  type AgentExecutorPorts,
  type AgentStepEvent,
} from "@switchyard/core/providers";
import type { Sandbox } from "@switchyard/core/sandbox";
import type { Scrubber } from "@switchyard/core/secrets";
import {
  conversationSessionKey,
  type AgentExecutor,
  type AgentRequest,
  type AgentResult,
} from "@switchyard/core/workflow";
import type { ChatInput } from "./chat-input";
import { runLocalChat, type ChatNext } from "./local-chat";
import type { Io } from "./validate-command";

/** The built CLI next to these sources or this bundle: packages/cli/dist. */
const CLI_DIST = fileURLToPath(new URL("../dist/", import.meta.url));

export type LocalAgentsOptions = {
  /** The run's sandbox: each attempt's sandbox is opened inside it. */
  run: Sandbox;
  env: NodeJS.ProcessEnv;
  io: Io;
  scrubber: Scrubber;
  /** The local connectors a step's `mcp_proxy` names (local-connectors.ts). */
  stepConnectors?: AgentExecutorPorts["stepConnectors"];
  /** Where a conversation step reads the person's messages. */
  chatInput: ChatInput;
};

type Kept = NonNullable<AgentResult["kept"]>;

const short = (value: unknown, max = 100) => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

const printer = (io: Io, scrubber: Scrubber, state: string) => ({
  record: (r: ToolCallRecord) =>
    io.err(
      scrubber.scrub(
        `  ⚒ [${state}] ${r.tool}${r.is_error ? " ✗" : ""} ${short(r.arguments)} (${r.duration_ms} ms)\n`,
      ),
    ),
  event: (e: AgentStepEvent) => {
    if (e.type === "text" && e.text.trim())
      io.err(scrubber.scrub(`  … [${state}] ${short(e.text.trim(), 400)}\n`));
    if (e.type === "tool_use" && e.native)
      io.err(scrubber.scrub(`  ⚒ [${state}] ${e.name} (the CLI's own) ${short(e.arguments)}\n`));
    if (e.type === "retry")
      io.err(
        scrubber.scrub(
          `  ↻ [${state}] model request ${e.attempt} failed (${e.message}); again in ${e.delayMs} ms\n`,
        ),
      );
    if (e.type === "error") io.err(scrubber.scrub(`  ✗ [${state}] ${e.code}: ${e.message}\n`));
  },
});

const stringOption = (options: Record<string, unknown>, name: string) => {
  const value = options[name];
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string")
    throw new AppError("USER.INPUT.VALIDATION_FAILED", `options.${name} must be a string`, {
      location: { path: `options.${name}` },
    });
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

export const localAgents = (
  options: LocalAgentsOptions,
): AgentExecutor & { close: () => Promise<void> } => {
  const { run, env, io, scrubber } = options;
  // The sessions session-tracked steps kept, for the run only: dropped when it ends.
  const sessions = new Map<string, { provider: string; kept: Kept }>();
  // The session each conversation turn goes on from, by attempt, for the executor's port.
  const chatTurns = new Map<string, { next?: ChatNext }>();
  // A step uid of its own (as root) cannot enter a private folder: stage copies it can.
  let stageRoot: Promise<{ dir: string; temporary: boolean }> | undefined;
  const stageDir = async () =>
    run.uid === undefined ? undefined : (await (stageRoot ??= openStageRoot())).dir;
  let gateway: Promise<ModelGateway> | undefined;
  const agentsDir = env.SWITCHYARD_AGENTS_DIR || path.join(homedir(), ".cache/switchyard/agents");
  const firstOf = (names: readonly string[]) =>
    names.map((n) => env[n]).find((v) => v !== undefined && v !== "");

  const agents = createAgentExecutor({
    sandbox: run.host,
    uid: run.uid,
    runDir: run.folders.root,
    workspace: run.folders.workspace,
    scrubber,
    ...(options.stepConnectors ? { stepConnectors: options.stepConnectors } : {}),
    staging: createAgentStaging({
      cliDist: CLI_DIST,
      agentsDir,
      cliStageDir: stageDir,
      agentsStageDir: stageDir,
      // Runs all the same; said once per CLI.
      onVersionDrift: ({ agent, pinned, installed }) =>
        io.err(
          `warning: ${agent} ${installed} is installed in ${agentsDir}, but scripts/agents.json pins ${pinned}: run \`npm run agents:install -- --only ${agent}\`, or bump the pin\n`,
        ),
    }),
    // The person's key stays in this process: the CLI in the sandbox gets a per-step token.
    gateway: () =>
      (gateway ??= startModelGateway({
        tcp: true,
        socketPath: path.join(run.folders.root, "gateway.sock"),
      })),
    upstream: (vendor) => {
      const apiKey = firstOf(VENDOR_ENV[vendor].key);
      return Promise.resolve(
        apiKey
          ? {
              baseUrl: firstOf(VENDOR_ENV[vendor].baseUrl) || defaultModelEndpoint(vendor)!,
              apiKey,
            }
          : undefined,
      );
    },
    // The person's own run: the endpoint the workflow names is theirs to call.
    openAiAccess: (request) => {
      const baseUrl = stringOption(request.options, "base_url");
      return Promise.resolve({
        apiKey: firstOf(["OPENAI_API_KEY"]),
        allowedEndpoints: baseUrl ? [baseUrl] : [],
      });
    },
    continuedSession: (request) => {
      const from = request.conversation?.continueFrom;
      const found = from && sessions.get(conversationSessionKey(request, from.state));
      return Promise.resolve(found && found.provider === request.provider ? found.kept : undefined);
    },
    governance: (request) => {
      const turn = chatTurns.get(request.attemptId);
      return turn ? { conversation: turn } : undefined;
    },
    subscribe: (request, events) => {
      const print = printer(io, scrubber, request.stateName);
      events.subscribe("tool.recorded", print.record);
      events.subscribe("agent.reported", print.event);
      return {};
    },
    messages: {
      notConfigured: (request, entry) => {
        const names = VENDOR_ENV[entry.cli.vendor];
        return `"${request.stateName}" runs ${entry.label}: set ${names.key.join(" or ")} (and ${names.baseUrl.join(" or ")} for another endpoint)`;
      },
      where: "here",
    },
  });

  const turn = async (request: AgentRequest, next: ChatNext | undefined) => {
    chatTurns.set(request.attemptId, next ? { next } : {});
    try {
      return await agents.execute(request);
    } finally {
      chatTurns.delete(request.attemptId);
    }
  };

  return {
    execute: async (request) => {
      if (request.chat)
        return runLocalChat(request, { turn, input: options.chatInput, io, scrubber });
      const { kept, ...result } = await agents.execute(request);
      if (kept)
        sessions.set(conversationSessionKey(request, request.stateName), {
          provider: request.provider,
          kept,
        });
      return result;
    },
    timesChatTurns: true,
    close: async () => {
      sessions.clear();
      const started = gateway;
      gateway = undefined;
      if (started) await (await started).close();
      const staged = await stageRoot?.catch(() => undefined);
      if (staged?.temporary) await rm(staged.dir, { recursive: true, force: true });
    },
  };
};
