/**
 * How a gemini step starts Gemini CLI: the argument list (never a shell string), the whole
 * environment, and the files of its private HOME. Headless mode (`--prompt`) with
 * stream-json events; the step's `switchyard mcp-serve` as its only MCP server, trusted so
 * its calls neither wait for an answer nor get dropped; `tools.core` listing the proxy's
 * tools only, which leaves the CLI's own tools unregistered; the model reached through the
 * gateway with a per-step token, never a real key; telemetry, usage statistics and update
 * checks off.
 *
 * Gemini CLI merges a trusted workspace's `.gemini/settings.json` over the user's (hooks,
 * tools, MCP servers), and an untrusted workspace gets no stdio MCP server at all. So the CLI
 * starts in its private HOME (`env --chdir`), where the workspace settings are the user
 * settings written here; the proxy works on the step's workspace whatever the CLI's folder.
 * Pure: paths are as the CLI sees them.
 */
import { AppError } from "../../errors/app-error";
import type { AgentRequest } from "../../workflow/model/engine-ports";
import type { LaunchFile } from "../launch-files";
import { invalidOption } from "../option-values";
import { readGeminiOptions } from "./gemini-options";

/** The proxy's server name: Gemini CLI offers its tools as `mcp_switchyard_<name>`. */
export const GEMINI_MCP_SERVER = "switchyard";
export const GEMINI_TOOL_PREFIX = `mcp_${GEMINI_MCP_SERVER}_`;
/** Above this many bytes the prompt goes on stdin (one argument is at most 128 KiB). */
export const GEMINI_ARGUMENT_BYTES = 64 * 1024;

export type GeminiLaunchInput = {
  request: Pick<AgentRequest, "prompt" | "systemPrompt" | "options">;
  /** The CLI as the step starts it: a program and the arguments before the CLI's own. */
  cli: { command: string; args: readonly string[] };
  /** The Node 22 runtime's bin folder, first on PATH. */
  nodeBinDir: string;
  homeDir: string;
  tmpDir: string;
  /** The step's proxy as a stdio MCP server. */
  proxy: { command: string; args: readonly string[] };
  gateway: { baseUrl: string; token: string };
  /** Every tool the proxy may offer, by name. */
  toolNames: readonly string[];
  /**
   * PATH after the Node bin folder.
   * @default SYSTEM_PATH
   */
  systemPath?: readonly string[];
  /** How long a call to the proxy may take (the server's `timeout`, ms); unset: the CLI's 10 min. */
  toolTimeoutMs?: number;
  /** Continue this session (`--resume <id>`, its chat already in HOME) with the prompt as the next turn. */
  resumeSessionId?: string;
};

export type GeminiLaunch = {
  argv: string[];
  env: Record<string, string>;
  files: LaunchFile[];
  stdin?: string;
};

/** GNU env, which starts the CLI in another folder without a shell. */
const ENV_PROGRAM = "/usr/bin/env";
const SYSTEM_PATH = ["/usr/local/bin", "/usr/bin", "/bin"];
const SETTINGS = ".gemini/settings.json";
const SYSTEM_PROMPT = ".switchyard/system-prompt.md";
const TOOL_NAME = /^[A-Za-z0-9_-]{1,48}$/;
const LOOPBACK_HOST = /^(127(\.\d{1,3}){3}|\[::1\]|localhost)$/;

const configError = (message: string) => new AppError("SYSTEM.CONFIG", message);

/** An absolute path without `$` (Gemini CLI expands variables in its settings' strings). */
const plainPath = (what: string, value: string): string => {
  if (!value.startsWith("/") || value.includes("$"))
    throw configError(
      `the gemini launch needs an absolute ${what} without "$", got ${JSON.stringify(value)}`,
    );
  return value.length > 1 ? value.replace(/\/+$/, "") : value;
};

const loopbackGateway = ({ baseUrl, token }: GeminiLaunchInput["gateway"]) => {
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (
    !url ||
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    !LOOPBACK_HOST.test(url.hostname)
  )
    throw configError(
      `the model gateway must be an http URL on loopback, got ${JSON.stringify(baseUrl)}`,
    );
  if (!token.trim()) throw configError("the model gateway token is empty");
};

/** The proxy's tools the step may call, as Gemini CLI names them. */
const toolList = (
  toolNames: readonly string[],
  allowed: readonly string[] | undefined,
): string[] => {
  const bad = toolNames.find((n) => !TOOL_NAME.test(n));
  if (bad !== undefined)
    throw configError(
      `proxy tool name ${JSON.stringify(bad)} is not 1-48 characters of [A-Za-z0-9_-]`,
    );
  if (allowed === undefined) return toolNames.map((n) => GEMINI_TOOL_PREFIX + n);
  const known = new Map(toolNames.map((n) => [n.toLowerCase(), n] as const));
  const picked = allowed.map((entry) => {
    const bare = entry.startsWith(GEMINI_TOOL_PREFIX)
      ? entry.slice(GEMINI_TOOL_PREFIX.length)
      : entry;
    const name = known.get(bare.toLowerCase());
    if (name === undefined)
      throw invalidOption(
        "allowed_tools",
        `names "${entry}", which is not a tool of this step (its tools: ${toolNames.join(", ") || "none"})`,
      );
    return GEMINI_TOOL_PREFIX + name;
  });
  return [...new Set(picked)];
};

const inHome = (homeDir: string, relativePath: string, content: string): LaunchFile => ({
  path: `${homeDir === "/" ? "" : homeDir}/${relativePath}`,
  root: "home",
  relativePath,
  content,
  mode: 0o600,
});

export const buildGeminiLaunch = (input: GeminiLaunchInput): GeminiLaunch => {
  const { request } = input;
  const options = readGeminiOptions(request.options);
  loopbackGateway(input.gateway);
  const homeDir = plainPath("HOME", input.homeDir);
  const tmpDir = plainPath("temp folder", input.tmpDir);
  const nodeBinDir = plainPath("Node bin folder", input.nodeBinDir);
  const proxyCommand = plainPath("proxy command", input.proxy.command);
  if (input.proxy.args.some((a) => a.includes("$")))
    throw configError(
      `the proxy's arguments may not contain "$": ${JSON.stringify(input.proxy.args)}`,
    );
  const path = [nodeBinDir, ...(input.systemPath ?? SYSTEM_PATH)].join(":");
  const lang = "C.UTF-8";

  const settings = {
    security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
    mcpServers: {
      [GEMINI_MCP_SERVER]: {
        command: proxyCommand,
        args: [...input.proxy.args],
        // Given outright: the CLI passes its servers a redacted copy of its own environment.
        env: { HOME: homeDir, PATH: path, TMPDIR: tmpDir, LANG: lang },
        trust: true,
        ...(input.toolTimeoutMs === undefined ? {} : { timeout: Math.ceil(input.toolTimeoutMs) }),
      },
    },
    mcp: { allowed: [GEMINI_MCP_SERVER] },
    tools: { core: toolList(input.toolNames, options.allowedTools) },
    model: {
      name: options.model,
      ...(options.maxTurns === undefined ? {} : { maxSessionTurns: options.maxTurns }),
    },
    hooksConfig: { enabled: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    ui: { showHomeDirectoryWarning: false },
    context: { includeDirectoryTree: false },
    advanced: { ignoreLocalEnv: true },
  };
  const files = [inHome(homeDir, SETTINGS, `${JSON.stringify(settings, null, 2)}\n`)];

  const env: Record<string, string> = {
    HOME: homeDir,
    PATH: path,
    TMPDIR: tmpDir,
    LANG: lang,
    GOOGLE_GEMINI_BASE_URL: input.gateway.baseUrl,
    GEMINI_API_KEY: input.gateway.token,
    // Trusted by the environment: no trustedFolders.json, no prompt, stdio MCP servers allowed.
    GEMINI_CLI_TRUST_WORKSPACE: "true",
    // One process: the CLI otherwise starts itself again as a child with a larger heap.
    GEMINI_CLI_NO_RELAUNCH: "true",
    NO_BROWSER: "true",
  };
  const system = request.systemPrompt;
  if (system) {
    const file = inHome(homeDir, SYSTEM_PROMPT, system);
    files.push(file);
    env.GEMINI_SYSTEM_MD = file.path;
  }

  const argv = [
    ENV_PROGRAM,
    `--chdir=${homeDir}`,
    plainPath("CLI command", input.cli.command),
    ...input.cli.args,
    "--output-format=stream-json",
    `--model=${options.model}`,
    `--allowed-mcp-server-names=${GEMINI_MCP_SERVER}`,
    `--approval-mode=${options.yolo ? "yolo" : "default"}`,
  ];
  if (input.resumeSessionId !== undefined) argv.push(`--resume=${input.resumeSessionId}`);
  const onStdin = Buffer.byteLength(request.prompt, "utf8") > GEMINI_ARGUMENT_BYTES;
  // With --prompt the CLI runs headless and appends the prompt to what stdin holds.
  argv.push(`--prompt=${onStdin ? "" : request.prompt}`);
  return { argv, env, files, ...(onStdin ? { stdin: request.prompt } : {}) };
};
