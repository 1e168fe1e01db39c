import { describe, expect, it } from "vitest";
import { isAppError } from "../../errors/app-error";
import {
  buildCodexLaunch,
  CODEX_ARGUMENT_BYTES,
  type CodexLaunchInput,
} from "./build-codex-launch";
import { toToml, tomlString } from "./codex-toml";

const TOKEN = "gw-step-2b7d4e9a1c60";

const input = (
  over: Partial<CodexLaunchInput> = {},
  options: Record<string, unknown> = {},
): CodexLaunchInput => ({
  request: { prompt: "Fix the bug.", options },
  agent: {
    command: "/opt/agents/node/bin/node",
    args: ["/opt/agents/codex/node_modules/@openai/codex/bin/codex.js"],
    pathPrefix: "/opt/agents/node/bin",
  },
  homeDir: "/home/step",
  tmpDir: "/tmp",
  proxy: {
    command: "/usr/bin/node",
    args: ["/opt/switchyard/switchyard.mjs", "mcp-serve", "--config", "/run/proxy.json"],
  },
  gateway: { baseUrl: "http://127.0.0.1:8089/v1", token: TOKEN },
  ...over,
});

const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (isAppError(error))
      return { code: error.code, message: error.message, path: error.location?.path };
    throw error;
  }
  throw new Error("expected an error");
};

describe("buildCodexLaunch", () => {
  it("runs codex exec --json with the prompt after --, the token in its own variable and the config in CODEX_HOME", () => {
    const { argv, env, files, stdin } = buildCodexLaunch(input({}, { model: "gpt-5-codex" }));
    expect(argv).toEqual([
      "/opt/agents/node/bin/node",
      "/opt/agents/codex/node_modules/@openai/codex/bin/codex.js",
      "exec",
      "--json",
      "--strict-config",
      "--skip-git-repo-check",
      "--ignore-rules",
      "--color",
      "never",
      "--model",
      "gpt-5-codex",
      "--",
      "Fix the bug.",
    ]);
    expect(stdin).toBeUndefined();
    expect(env).toEqual({
      HOME: "/home/step",
      CODEX_HOME: "/home/step/.codex",
      PATH: "/opt/agents/node/bin:/usr/local/bin:/usr/bin:/bin",
      TMPDIR: "/tmp",
      LANG: "C.UTF-8",
      NO_COLOR: "1",
      SWITCHYARD_MODEL_TOKEN: TOKEN,
    });
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({
      path: "/home/step/.codex/config.toml",
      root: "home",
      relativePath: ".codex/config.toml",
      mode: 0o600,
    });
    const toml = files[0]!.content;
    expect(toml).not.toContain(TOKEN);
    for (const line of [
      'model = "gpt-5-codex"',
      'model_provider = "switchyard"',
      'approval_policy = "never"',
      'sandbox_mode = "read-only"',
      "project_doc_max_bytes = 0",
      "[model_providers.switchyard]",
      'base_url = "http://127.0.0.1:8089/v1"',
      'env_key = "SWITCHYARD_MODEL_TOKEN"',
      'wire_api = "responses"',
      "[mcp_servers.switchyard]",
      'command = "/usr/bin/node"',
      'args = ["/opt/switchyard/switchyard.mjs", "mcp-serve", "--config", "/run/proxy.json"]',
      "required = true",
      'default_tools_approval_mode = "approve"',
      "shell_tool = false",
      "[features.code_mode]",
      'direct_only_tool_namespaces = ["mcp__switchyard"]',
      "[tools.experimental_request_user_input]",
      "enabled = false",
    ])
      expect(toml.split("\n")).toContain(line);
    expect(toml).not.toContain("developer_instructions");
  });

  it("puts a long prompt on stdin, and the system prompt in the config as a safely escaped string", () => {
    const prompt = "p".repeat(CODEX_ARGUMENT_BYTES + 1);
    const system = 'Be terse.\n"quoted" \\ and\ttab\u0001\u007f\nmodel = "evil"';
    const { argv, stdin, files } = buildCodexLaunch({
      ...input(),
      request: { prompt, systemPrompt: system, options: {} },
    });
    expect(argv.slice(-2)).toEqual(["--", "-"]);
    expect(stdin).toBe(prompt);
    const toml = files[0]!.content;
    expect(toml).toContain(
      'developer_instructions = "Be terse.\\n\\"quoted\\" \\\\ and\\ttab\\u0001\\u007f\\nmodel = \\"evil\\""',
    );
    expect(toml.split("\n").filter((l) => l.startsWith("model ="))).toEqual([]);
  });

  it("bypasses Codex's own approvals and sandbox only when the step asks", () => {
    const { argv, files } = buildCodexLaunch(input({}, { dangerously_skip_permissions: "true" }));
    expect(argv).toContain("--dangerously-bypass-approvals-and-sandbox");
    expect(files[0]!.content).toContain('sandbox_mode = "danger-full-access"');
    expect(buildCodexLaunch(input({}, { dangerously_skip_permissions: false })).argv).not.toContain(
      "--dangerously-bypass-approvals-and-sandbox",
    );
  });

  it("refuses bad options, a gateway off loopback, an empty token and relative paths", () => {
    expect(
      failure(() => buildCodexLaunch(input({}, { dangerously_skip_permissions: "yes" }))),
    ).toMatchObject({
      code: "USER.INPUT.VALIDATION_FAILED",
      path: "options.dangerously_skip_permissions",
    });
    expect(failure(() => buildCodexLaunch(input({}, { model: 42 })))).toMatchObject({
      path: "options.model",
    });
    expect(
      failure(() =>
        buildCodexLaunch(
          input({ gateway: { baseUrl: "https://api.openai.com/v1", token: TOKEN } }),
        ),
      ),
    ).toMatchObject({
      code: "SYSTEM.CONFIG",
    });
    expect(
      failure(() =>
        buildCodexLaunch(input({ gateway: { baseUrl: "http://127.0.0.1:1/v1", token: " " } })),
      ),
    ).toMatchObject({
      code: "SYSTEM.CONFIG",
    });
    expect(failure(() => buildCodexLaunch(input({ homeDir: "home" })))).toMatchObject({
      code: "SYSTEM.CONFIG",
    });
  });
});

describe("buildCodexLaunch for a held call and a resume", () => {
  const mcpServer = (launch: ReturnType<typeof buildCodexLaunch>) =>
    launch.files[0]!.content.split("[mcp_servers.switchyard]")[1]!;

  it("sets the proxy's tool_timeout_sec from the step's tool timeout (whole seconds, up), else a day", () => {
    expect(mcpServer(buildCodexLaunch(input({ toolTimeoutMs: 150_500 })))).toContain(
      "tool_timeout_sec = 151\n",
    );
    expect(mcpServer(buildCodexLaunch(input()))).toContain("tool_timeout_sec = 86400\n");
  });

  it("keeps the session (no --ephemeral) and resumes one with `exec ... resume -- <id> <prompt>`", () => {
    const id = "01a23cb0-3701-7812-af1c-dcb7a56e336d";
    const { argv } = buildCodexLaunch(
      input({ resume: { sessionId: id } }, { model: "gpt-5-codex" }),
    );
    expect(argv.slice(2)).toEqual([
      "exec",
      "--json",
      "--strict-config",
      "--skip-git-repo-check",
      "--ignore-rules",
      "resume",
      "--model",
      "gpt-5-codex",
      "--",
      id,
      "Fix the bug.",
    ]);
    expect(buildCodexLaunch(input()).argv).not.toContain("--ephemeral");
  });
});

describe("toToml", () => {
  it("writes scalars before nested tables, quotes keys that are not bare, and skips undefined", () => {
    expect(
      toToml({ a: 1, b: undefined, t: { "x.y": true, deep: { list: ['q"', "r"] } }, empty: {} }),
    ).toBe('a = 1\n\n[t]\n"x.y" = true\n\n[t.deep]\nlist = ["q\\"", "r"]\n\n[empty]\n');
    expect(tomlString("\u0000")).toBe('"\\u0000"');
  });
});
