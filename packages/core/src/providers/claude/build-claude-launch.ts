/**
 * How a claude step starts Claude Code: the argument list (never a shell string), the whole
 * environment, and the files to write into its private HOME. Print mode with stream-json
 * events; the step's `switchyard mcp-serve` as its only MCP server; settings from the user
 * source only (a `.claude/settings.json` planted in the workspace never counts); its own tools
 * off when the proxy serves the built-ins; the proxy's tools allowed by exact name (wildcards
 * fail in print mode); the model reached through the gateway with a per-step token, never a
 * real key. Pure: paths are as the CLI sees them, so the same launch runs in any sandbox.
 */
import { AppError } from "../../errors/app-error";
import { CODES } from "../../errors/error-codes";
import type { AgentRequest } from "../../workflow/model/engine-ports";
import type { LaunchFile } from "../launch-files";
import { readClaudeOptions } from "./claude-options";

/** The proxy's server name in the MCP config: Claude calls its tools `mcp__switchyard__<name>`. */
export const CLAUDE_MCP_SERVER = "switchyard";
export const CLAUDE_TOOL_PREFIX = `mcp__${CLAUDE_MCP_SERVER}__`;

/** Above this many bytes the prompt goes on stdin and the system prompt into a file (one argument is at most 128 KiB). */
export const CLAUDE_ARGUMENT_BYTES = 64 * 1024;

export type ClaudeLaunchInput = {
  request: Pick<AgentRequest, "prompt" | "systemPrompt" | "options">;
  /** The CLI's executable as the step sees it. */
  cliPath: string;
  /** The Node 22 runtime's bin folder, first on PATH. */
  nodeBinDir: string;
  /** The step's private HOME and temp folder, as the step sees them. */
  homeDir: string;
  tmpDir: string;
  /** Where the worker writes buildClaudeMcpConfig's content, as the step sees it. */
  mcpConfigPath: string;
  /** The model gateway: its loopback base URL and this step's token. */
  gateway: { baseUrl: string; token: string };
  /** The proxy serves Read, Write, Edit, Bash, Glob, Grep: Claude's own tools are switched off. */
  builtinsIntercepted: boolean;
  /** Every tool the step's proxy may offer, by its final name (tool_search and call_tool included). */
  toolNames: readonly string[];
  /** The CLI would run as uid 0 (it then refuses to skip permissions). */
  runsAsRoot: boolean;
  /**
   * PATH after the Node bin folder.
   * @default DEFAULT_SYSTEM_PATH
   */
  systemPath?: readonly string[];
  /** How long a call to the proxy may take (MCP_TOOL_TIMEOUT); unset: Claude Code's default. */
  toolTimeoutMs?: number;
  /** Continue this session (`--resume <id>`, its transcript already in HOME) with the prompt as the next turn. */
  resumeSessionId?: string;
};

export type ClaudeLaunch = {
  argv: string[];
  env: Record<string, string>;
  files: LaunchFile[];
  /** Written to the CLI's stdin, which is then closed (a prompt too long for an argument). */
  stdin?: string;
};

const DEFAULT_SYSTEM_PATH = ["/usr/local/bin", "/usr/bin", "/bin"];
const PROXY_NAME = /^[A-Za-z0-9_-]{1,47}$/;
/** A native tool or permission rule (`Bash(git *)`); never something the CLI reads as a flag. */
const NATIVE_RULE = /^[A-Za-z][A-Za-z0-9_]*(\(.*\))?$/s;
const SETTINGS_PATH = ".claude/settings.json";
const SYSTEM_PROMPT_PATH = ".switchyard/system-prompt.md";

const invalid = (path: string, message: string) =>
  new AppError("USER.INPUT.VALIDATION_FAILED", message, { location: { path } });

const config = (message: string) => new AppError("SYSTEM.CONFIG", message);

const absolute = (name: string, value: string) => {
  if (!value.startsWith("/"))
    throw config(`the claude launch needs an absolute ${name}, got ${JSON.stringify(value)}`);
  return value.replace(/\/+$/, "") || "/";
};

const checkGateway = (gateway: ClaudeLaunchInput["gateway"]) => {
  let url: URL;
  try {
    url = new URL(gateway.baseUrl);
  } catch {
    throw config(`the model gateway URL ${JSON.stringify(gateway.baseUrl)} is not a URL`);
  }
  const loopback = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/.test(url.hostname);
  if (!/^https?:$/.test(url.protocol) || !loopback)
    throw config(`the model gateway must be an http URL on loopback, got ${url.origin}`);
  if (gateway.token.trim() === "") throw config("the model gateway token is empty");
};

/** The exact names `--allowedTools` gets, from the proxy's names and the step's `allowed_tools`. */
const allowedNames = (
  toolNames: readonly string[],
  requested: readonly string[] | undefined,
  builtinsIntercepted: boolean,
): string[] => {
  for (const name of toolNames)
    if (!PROXY_NAME.test(name))
      throw config(
        `proxy tool name ${JSON.stringify(name)} is not 1-47 characters of [A-Za-z0-9_-]`,
      );
  const proxy = toolNames.map((n) => `${CLAUDE_TOOL_PREFIX}${n}`);
  if (requested === undefined) return proxy;
  const byLower = new Map(toolNames.map((n) => [n.toLowerCase(), n]));
  const chosen: string[] = [];
  for (const entry of requested) {
    const bare = entry.startsWith(CLAUDE_TOOL_PREFIX)
      ? entry.slice(CLAUDE_TOOL_PREFIX.length)
      : entry;
    const proxyName = byLower.get(bare.toLowerCase());
    if (proxyName !== undefined) chosen.push(`${CLAUDE_TOOL_PREFIX}${proxyName}`);
    else if (builtinsIntercepted)
      throw invalid(
        "options.allowed_tools",
        `options.allowed_tools names "${entry}", which is not a tool of this step (its tools: ${toolNames.join(", ") || "none"})`,
      );
    else if (!NATIVE_RULE.test(entry))
      throw invalid(
        "options.allowed_tools",
        `options.allowed_tools entry ${JSON.stringify(entry)} is not a tool name (such as Read or Bash(git *))`,
      );
    else chosen.push(entry);
  }
  return [...new Set(chosen)];
};

/** ~/.claude/settings.json: quiet, no hooks or project MCP servers, no auto-memory, and no bypass mode unless asked. */
const settings = (skipPermissions: boolean) => ({
  disableAllHooks: true,
  enableAllProjectMcpServers: false,
  autoMemoryEnabled: false,
  spinnerTipsEnabled: false,
  promptSuggestionEnabled: false,
  feedbackSurveyRate: 0,
  ...(skipPermissions ? {} : { permissions: { disableBypassPermissionsMode: "disable" } }),
});

const homeFile = (homeDir: string, relativePath: string, content: string): LaunchFile => ({
  path: `${homeDir === "/" ? "" : homeDir}/${relativePath}`,
  root: "home",
  relativePath,
  content,
  mode: 0o600,
});

/**
 * Claude Code reads a call's limit from the server's `timeout` (ms, ignored below 1000), else
 * MCP_TOOL_TIMEOUT, else 1e8 ms; a stdio server's call that sends nothing for 30 min is cut
 * too, unless the server's `timeout` is longer. Both are set: the same whole milliseconds.
 */
export const claudeToolTimeout = (ms: number) => Math.max(1000, Math.ceil(ms));

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

export const buildClaudeLaunch = (input: ClaudeLaunchInput): ClaudeLaunch => {
  const { request } = input;
  const options = readClaudeOptions(request.options);
  if (options.skipPermissions && input.runsAsRoot)
    throw new AppError(
      CODES.SKIP_PERMISSIONS_AS_ROOT,
      "options.dangerously_skip_permissions cannot be used here: Claude Code would run as root, where it refuses to skip permissions (run the worker's steps under their own uid, the sandbox's strict level)",
      { location: { path: "options.dangerously_skip_permissions" } },
    );
  checkGateway(input.gateway);
  const homeDir = absolute("HOME", input.homeDir);
  const tmpDir = absolute("temp folder", input.tmpDir);
  const mcpConfigPath = absolute("MCP config path", input.mcpConfigPath);
  const cliPath = absolute("CLI path", input.cliPath);
  const nodeBinDir = absolute("Node bin folder", input.nodeBinDir);
  const allowed = allowedNames(input.toolNames, options.allowedTools, input.builtinsIntercepted);

  const files = [
    homeFile(
      homeDir,
      SETTINGS_PATH,
      `${JSON.stringify(settings(options.skipPermissions), null, 2)}\n`,
    ),
  ];
  const argv = [
    cliPath,
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    `--mcp-config=${mcpConfigPath}`,
    "--strict-mcp-config",
    "--setting-sources",
    "user",
  ];
  if (input.builtinsIntercepted) argv.push("--tools", "");
  if (options.model !== undefined) argv.push(`--model=${options.model}`);
  const system = request.systemPrompt;
  if (system !== undefined && system !== "") {
    if (bytes(system) <= CLAUDE_ARGUMENT_BYTES) argv.push(`--system-prompt=${system}`);
    else {
      const file = homeFile(homeDir, SYSTEM_PROMPT_PATH, system);
      files.push(file);
      argv.push(`--system-prompt-file=${file.path}`);
    }
  }
  if (options.maxTurns !== undefined) argv.push(`--max-turns=${options.maxTurns}`);
  if (options.skipPermissions) argv.push("--dangerously-skip-permissions");
  if (allowed.length > 0) argv.push("--allowedTools", ...allowed);
  if (input.resumeSessionId !== undefined) argv.push(`--resume=${input.resumeSessionId}`);
  const onStdin = bytes(request.prompt) > CLAUDE_ARGUMENT_BYTES;
  if (!onStdin) argv.push("--", request.prompt);

  const env: Record<string, string> = {
    HOME: homeDir,
    PATH: [nodeBinDir, ...(input.systemPath ?? DEFAULT_SYSTEM_PATH)].join(":"),
    TMPDIR: tmpDir,
    LANG: "C.UTF-8",
    ANTHROPIC_BASE_URL: input.gateway.baseUrl,
    ANTHROPIC_API_KEY: input.gateway.token,
    DISABLE_TELEMETRY: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    ...(input.toolTimeoutMs === undefined
      ? {}
      : { MCP_TOOL_TIMEOUT: String(claudeToolTimeout(input.toolTimeoutMs)) }),
  };
  return { argv, env, files, ...(onStdin ? { stdin: request.prompt } : {}) };
};
