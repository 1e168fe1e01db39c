/**
 * How an opencode step starts OpenCode: `opencode run --format json` (an argument list, never
 * a shell string), its whole environment, and its config in the private HOME. The config
 * (OPENCODE_CONFIG; the workspace's `opencode.json` and `.opencode/` never count) has one
 * provider, `switchyard`, an OpenAI Chat Completions endpoint (`@ai-sdk/openai-compatible`,
 * bundled in the binary) at the model gateway with the step's token, read from the
 * environment so no file holds it; the step's `switchyard mcp-serve` as its only MCP server;
 * every permission denied but the proxy's tools, which removes OpenCode's own tools from what
 * the model is offered; and an agent of its own whose prompt is the step's system prompt
 * (from a file: `{file:…}` is read as is, where text inside the config would have its
 * `{env:…}` expanded). Nothing is fetched at run time: no models list, updates, plugins or
 * LSP downloads, no sharing. Pure: paths are as the CLI sees them.
 */
import { AppError } from "../../errors/app-error";
import type { AgentRequest } from "../../workflow/model/engine-ports";
import type { LaunchFile } from "../launch-files";
import { invalidOption } from "../option-values";
import { readOpencodeOptions } from "./opencode-options";

/** The proxy's MCP server name: OpenCode calls its tools `switchyard_<name>`. */
export const OPENCODE_MCP_SERVER = "switchyard";
export const OPENCODE_TOOL_PREFIX = `${OPENCODE_MCP_SERVER}_`;
/** The provider id in OpenCode's config and the agent the step runs as. */
export const OPENCODE_PROVIDER = "switchyard";
export const OPENCODE_AGENT = "switchyard";
/** Above this many bytes the prompt goes on stdin (one argument is at most 128 KiB). */
export const OPENCODE_ARGUMENT_BYTES = 64 * 1024;
/** The variable the config reads the gateway token from. */
export const OPENCODE_TOKEN_ENV = "SWITCHYARD_GATEWAY_TOKEN";

export const OPENCODE_CONFIG_PATH = ".config/opencode/switchyard.json";
const PROJECT_KEEP_PATH = ".switchyard/project/.keep";
const SYSTEM_PROMPT_PATH = ".switchyard/system-prompt.md";
const DEFAULT_SYSTEM_PATH = ["/usr/local/bin", "/usr/bin", "/bin"];
/**
 * The server's `timeout` bounds its start and tool listing as well as each call: never below
 * OpenCode's own 5 s for those.
 */
const OPENCODE_MCP_START_MS = 5_000;
/** OpenAI function names are at most 64 characters: `switchyard_` plus 53. */
const PROXY_NAME = /^[A-Za-z0-9_-]{1,53}$/;

export type OpencodeLaunchInput = {
  request: Pick<AgentRequest, "prompt" | "systemPrompt" | "options">;
  /** The CLI's executable as the step sees it. */
  cliPath: string;
  /** The Node 22 runtime's bin folder, first on PATH. */
  nodeBinDir: string;
  homeDir: string;
  tmpDir: string;
  /** The step's proxy as a stdio MCP server: `command args...`. */
  proxy: { command: string; args: string[] };
  /** The model gateway's OpenAI base URL (…/v1) on loopback and this step's token. */
  gateway: { baseUrl: string; token: string };
  /** Every tool the step's proxy may offer, by name. */
  toolNames: readonly string[];
  /**
   * PATH after the Node bin folder.
   * @default DEFAULT_SYSTEM_PATH
   */
  systemPath?: readonly string[];
  /** How long a call to the proxy may take (the server's `timeout`, ms); unset: the MCP SDK's 60 s. */
  toolTimeoutMs?: number;
  /** Continue this session (`--session <id>`, its database already in HOME) with the prompt as the next turn. */
  resumeSessionId?: string;
};

export type OpencodeLaunch = {
  argv: string[];
  env: Record<string, string>;
  files: LaunchFile[];
  stdin?: string;
};

const config = (message: string) =>
  new AppError("SYSTEM.CONFIG", `the opencode launch: ${message}`);

const absolute = (name: string, value: string) => {
  if (!value.startsWith("/"))
    throw config(`${name} must be absolute, got ${JSON.stringify(value)}`);
  return value.replace(/\/+$/, "") || "/";
};

const loopbackUrl = (gateway: OpencodeLaunchInput["gateway"]) => {
  const url = URL.canParse(gateway.baseUrl) ? new URL(gateway.baseUrl) : undefined;
  if (
    !url ||
    !/^https?:$/.test(url.protocol) ||
    !/^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/.test(url.hostname)
  )
    throw config(
      `the model gateway must be an http URL on loopback, got ${JSON.stringify(gateway.baseUrl)}`,
    );
  if (gateway.token.trim() === "") throw config("the model gateway token is empty");
  return gateway.baseUrl;
};

/** The proxy's tools the step may call: all of them, or those `allowed_tools` names (any case, prefix optional). */
const allowedTools = (toolNames: readonly string[], requested: readonly string[] | undefined) => {
  const bad = toolNames.find((name) => !PROXY_NAME.test(name));
  if (bad !== undefined)
    throw config(`proxy tool name ${JSON.stringify(bad)} is not 1-53 characters of [A-Za-z0-9_-]`);
  if (requested === undefined) return [...toolNames];
  const byLower = new Map(toolNames.map((n) => [n.toLowerCase(), n]));
  return [
    ...new Set(
      requested.map((entry) => {
        const name = byLower.get(
          entry.replace(new RegExp(`^${OPENCODE_TOOL_PREFIX}`, "i"), "").toLowerCase(),
        );
        if (name === undefined)
          throw invalidOption(
            "allowed_tools",
            `names "${entry}", which is not a tool of this step (its tools: ${toolNames.join(", ") || "none"})`,
          );
        return name;
      }),
    ),
  ];
};

const homeFile = (homeDir: string, relativePath: string, content: string): LaunchFile => ({
  path: `${homeDir === "/" ? "" : homeDir}/${relativePath}`,
  root: "home",
  relativePath,
  content,
  mode: 0o600,
});

export const buildOpencodeLaunch = (input: OpencodeLaunchInput): OpencodeLaunch => {
  const { request } = input;
  const options = readOpencodeOptions(request.options);
  const baseURL = loopbackUrl(input.gateway);
  const homeDir = absolute("HOME", input.homeDir);
  const tmpDir = absolute("the temp folder", input.tmpDir);
  const cliPath = absolute("the CLI path", input.cliPath);
  const nodeBinDir = absolute("the Node bin folder", input.nodeBinDir);
  const proxyCommand = absolute("the proxy command", input.proxy.command);
  const tools = allowedTools(input.toolNames, options.allowedTools);

  const files: LaunchFile[] = [];
  const system = request.systemPrompt;
  let prompt: string | undefined;
  if (system !== undefined && system !== "") {
    const file = homeFile(homeDir, SYSTEM_PROMPT_PATH, system);
    files.push(file);
    prompt = `{file:${file.path}}`;
  }
  const settings = {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    snapshot: false,
    enabled_providers: [OPENCODE_PROVIDER],
    model: `${OPENCODE_PROVIDER}/${options.model}`,
    small_model: `${OPENCODE_PROVIDER}/${options.model}`,
    provider: {
      [OPENCODE_PROVIDER]: {
        npm: "@ai-sdk/openai-compatible",
        name: "Switchyard model gateway",
        options: { baseURL, apiKey: `{env:${OPENCODE_TOKEN_ENV}}` },
        models: { [options.model]: { name: options.model } },
      },
    },
    mcp: {
      [OPENCODE_MCP_SERVER]: {
        type: "local",
        command: [proxyCommand, ...input.proxy.args],
        enabled: true,
        ...(input.toolTimeoutMs === undefined
          ? {}
          : { timeout: Math.max(OPENCODE_MCP_START_MS, Math.ceil(input.toolTimeoutMs)) }),
      },
    },
    permission: {
      "*": "deny",
      ...Object.fromEntries(tools.map((name) => [`${OPENCODE_TOOL_PREFIX}${name}`, "allow"])),
    },
    agent: {
      [OPENCODE_AGENT]: { mode: "primary", ...(prompt === undefined ? {} : { prompt }) },
    },
  };
  // OpenCode loads plugins from its project folder's .opencode/ even with --pure and project
  // config off: its project is an empty folder of the private HOME, never the workspace, so
  // a repository's planted plugin never runs. Its tools are the proxy's, which work in the
  // workspace whatever OpenCode's own folder is.
  const project = homeFile(homeDir, PROJECT_KEEP_PATH, "");
  files.push(project);
  files.push(homeFile(homeDir, OPENCODE_CONFIG_PATH, `${JSON.stringify(settings, null, 2)}\n`));

  const argv = [
    cliPath,
    "run",
    "--pure",
    "--format",
    "json",
    "--agent",
    OPENCODE_AGENT,
    "--title",
    "switchyard step",
    "--dir",
    project.path.slice(0, project.path.lastIndexOf("/")),
  ];
  if (options.auto) argv.push("--auto");
  if (input.resumeSessionId !== undefined) argv.push("--session", input.resumeSessionId);
  const onStdin = Buffer.byteLength(request.prompt, "utf8") > OPENCODE_ARGUMENT_BYTES;
  if (!onStdin) argv.push("--", request.prompt);

  const xdg = (relative: string) => `${homeDir === "/" ? "" : homeDir}/${relative}`;
  const env: Record<string, string> = {
    HOME: homeDir,
    PATH: [nodeBinDir, ...(input.systemPath ?? DEFAULT_SYSTEM_PATH)].join(":"),
    TMPDIR: tmpDir,
    LANG: "C.UTF-8",
    XDG_CONFIG_HOME: xdg(".config"),
    XDG_DATA_HOME: xdg(".local/share"),
    XDG_CACHE_HOME: xdg(".cache"),
    XDG_STATE_HOME: xdg(".local/state"),
    OPENCODE_CONFIG: files.at(-1)!.path,
    [OPENCODE_TOKEN_ENV]: input.gateway.token,
    OPENCODE_DISABLE_PROJECT_CONFIG: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
    OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_SHARE: "1",
    // Without it OpenCode runs `npm install` for its plugin package on every start.
    npm_config_offline: "true",
  };
  return { argv, env, files, ...(onStdin ? { stdin: request.prompt } : {}) };
};
