/**
 * How a codex step starts Codex: `codex exec --json` with an argument list (never a shell
 * string), the whole environment, and its config.toml in the private CODEX_HOME. The step's
 * `switchyard mcp-serve` is its only MCP server (required: Codex refuses to start without
 * it), its tools approved up front (exec mode otherwise cancels every call that needs an
 * approval nobody can give); Codex's own shell, sub-agents, web search, image viewer,
 * user-input prompt, plugins and apps are off, so the model works through the proxy's
 * built-ins. The model is a custom provider pointing at the gateway (OpenAI Responses API)
 * with a per-step token, never a real key. A workspace's `.codex/config.toml` never counts
 * (the workspace is not trusted), nor its AGENTS.md, hooks or rules. Pure: paths are as the
 * CLI sees them, so the same launch runs in any sandbox.
 */
import { AppError } from "../../errors/app-error";
import type { LaunchFile } from "../launch-files";
import type { LocatedAgent } from "../locate-agent";
import type { CliLaunchContext } from "../step/cli-step";
import { readCodexOptions } from "./codex-options";
import { toToml, type TomlTable } from "./codex-toml";

/** The proxy's server name: Codex offers its tools in the namespace `mcp__switchyard`. */
export const CODEX_MCP_SERVER = "switchyard";
/** The environment variable that carries the gateway token (the provider's `env_key`). */
export const CODEX_TOKEN_ENV = "SWITCHYARD_MODEL_TOKEN";
/** Above this many bytes the prompt goes on stdin (one argument is at most 128 KiB). */
export const CODEX_ARGUMENT_BYTES = 64 * 1024;

const PROVIDER_ID = "switchyard";
const CONFIG_PATH = ".codex/config.toml";
const DEFAULT_SYSTEM_PATH = ["/usr/local/bin", "/usr/bin", "/bin"];
/** Codex fails an MCP server that has not answered in 10 s by default; the proxy answers in well under 1 s. */
const MCP_STARTUP_SEC = 60;
/** Codex cuts a tool call at 60 s by default; unless told, the step's timeout is the one that holds. */
const MCP_TOOL_SEC = 24 * 60 * 60;

/** The step's launch context (paths as the CLI sees them), and PATH after the Node bin folder. */
export type CodexLaunchInput = Pick<
  CliLaunchContext,
  "request" | "homeDir" | "tmpDir" | "proxy" | "gateway" | "toolTimeoutMs" | "resume"
> & {
  agent: Pick<LocatedAgent, "command" | "args" | "pathPrefix">;
  /**
   * PATH after the Node bin folder.
   * @default DEFAULT_SYSTEM_PATH
   */
  systemPath?: readonly string[];
};

export type CodexLaunch = {
  argv: string[];
  env: Record<string, string>;
  files: LaunchFile[];
  stdin?: string;
};

const config = (message: string) => new AppError("SYSTEM.CONFIG", message);

const absolute = (name: string, value: string) => {
  if (!value.startsWith("/"))
    throw config(`the codex launch needs an absolute ${name}, got ${JSON.stringify(value)}`);
  return value.replace(/\/+$/, "") || "/";
};

const loopbackUrl = (baseUrl: string) => {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw config(`the model gateway URL ${JSON.stringify(baseUrl)} is not a URL`);
  }
  if (
    !/^https?:$/.test(url.protocol) ||
    !/^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/.test(url.hostname)
  )
    throw config(`the model gateway must be an http URL on loopback, got ${url.origin}`);
  return baseUrl.replace(/\/+$/, "");
};

/** Codex's config.toml for the step. */
const codexConfig = (
  input: CodexLaunchInput,
  options: ReturnType<typeof readCodexOptions>,
  baseUrl: string,
): TomlTable => {
  const system = input.request.systemPrompt;
  return {
    model: options.model,
    model_provider: PROVIDER_ID,
    approval_policy: "never",
    sandbox_mode: options.skipPermissions ? "danger-full-access" : "read-only",
    check_for_update_on_startup: false,
    web_search: "disabled",
    project_doc_max_bytes: 0,
    developer_instructions: system === undefined || system === "" ? undefined : system,
    history: { persistence: "none" },
    analytics: { enabled: false },
    agents: { enabled: false },
    features: {
      shell_tool: false,
      goals: false,
      view_image: false,
      plugins: false,
      remote_plugin: false,
      apps: false,
      hooks: false,
      memories: false,
      skill_mcp_dependency_install: false,
      // Models whose metadata asks for code mode get their tools inside a JavaScript `exec`
      // tool; the proxy's namespace stays a set of plain function tools all the same.
      code_mode: { direct_only_tool_namespaces: [`mcp__${CODEX_MCP_SERVER}`] },
    },
    tools: { experimental_request_user_input: { enabled: false } },
    model_providers: {
      [PROVIDER_ID]: {
        name: "Switchyard model gateway",
        base_url: baseUrl,
        env_key: CODEX_TOKEN_ENV,
        wire_api: "responses",
      },
    },
    mcp_servers: {
      [CODEX_MCP_SERVER]: {
        command: input.proxy.command,
        args: input.proxy.args,
        required: true,
        startup_timeout_sec: MCP_STARTUP_SEC,
        tool_timeout_sec:
          input.toolTimeoutMs === undefined ? MCP_TOOL_SEC : Math.ceil(input.toolTimeoutMs / 1000),
        default_tools_approval_mode: "approve",
      },
    },
  };
};

export const buildCodexLaunch = (input: CodexLaunchInput): CodexLaunch => {
  const options = readCodexOptions(input.request.options);
  const baseUrl = loopbackUrl(input.gateway.baseUrl);
  if (input.gateway.token.trim() === "") throw config("the model gateway token is empty");
  const homeDir = absolute("HOME", input.homeDir);
  const tmpDir = absolute("temp folder", input.tmpDir);
  const nodeBinDir = absolute("Node bin folder", input.agent.pathPrefix);
  absolute("CLI path", input.agent.command);
  absolute("proxy command", input.proxy.command);
  const codexHome = `${homeDir === "/" ? "" : homeDir}/.codex`;

  const file: LaunchFile = {
    path: `${codexHome}/config.toml`,
    root: "home",
    relativePath: CONFIG_PATH,
    content: toToml(codexConfig(input, options, baseUrl)),
    mode: 0o600,
  };
  // The session is kept (no --ephemeral): its rollout file is what a suspended step resumes
  // from, and the private CODEX_HOME goes with the sandbox anyway. `resume` takes the options
  // of `exec` given before it, but not --color.
  const argv = [
    input.agent.command,
    ...input.agent.args,
    "exec",
    "--json",
    "--strict-config",
    "--skip-git-repo-check",
    "--ignore-rules",
  ];
  if (input.resume) argv.push("resume");
  else argv.push("--color", "never");
  if (options.model !== undefined) argv.push("--model", options.model);
  if (options.skipPermissions) argv.push("--dangerously-bypass-approvals-and-sandbox");
  const onStdin = Buffer.byteLength(input.request.prompt, "utf8") > CODEX_ARGUMENT_BYTES;
  argv.push("--");
  if (input.resume) argv.push(input.resume.sessionId);
  argv.push(onStdin ? "-" : input.request.prompt);

  const env: Record<string, string> = {
    HOME: homeDir,
    CODEX_HOME: codexHome,
    PATH: [nodeBinDir, ...(input.systemPath ?? DEFAULT_SYSTEM_PATH)].join(":"),
    TMPDIR: tmpDir,
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    [CODEX_TOKEN_ENV]: input.gateway.token,
  };
  return { argv, env, files: [file], ...(onStdin ? { stdin: input.request.prompt } : {}) };
};
