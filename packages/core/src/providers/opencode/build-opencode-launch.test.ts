import { describe, expect, it } from "vitest";
import {
  buildOpencodeLaunch,
  OPENCODE_ARGUMENT_BYTES,
  type OpencodeLaunchInput,
} from "./build-opencode-launch";

const TOKEN = "gw-step-token-1";
const input = (
  over: Partial<OpencodeLaunchInput> = {},
  options: Record<string, unknown> = {},
): OpencodeLaunchInput => ({
  request: { prompt: "Fix the bug.", options },
  cliPath: "/opt/agents/opencode/bin/opencode",
  nodeBinDir: "/opt/agents/node/bin",
  homeDir: "/home/step",
  tmpDir: "/tmp/step",
  proxy: {
    command: "/usr/bin/node",
    args: ["/opt/switchyard/bin.mjs", "mcp-serve", "--config", "/run/proxy.json"],
  },
  gateway: { baseUrl: "http://127.0.0.1:8089/v1", token: TOKEN },
  toolNames: ["Read", "Write", "Bash"],
  ...over,
});

type Config = {
  model: string;
  provider: Record<
    string,
    { npm: string; options: { baseURL: string; apiKey: string }; models: Record<string, unknown> }
  >;
  mcp: Record<string, { type: string; command: string[]; enabled: boolean }>;
  permission: Record<string, string>;
  agent: Record<string, { mode: string; prompt?: string }>;
  autoupdate: boolean;
  share: string;
};

const configOf = (launch: ReturnType<typeof buildOpencodeLaunch>) => {
  const file = launch.files.find((f) => f.path === launch.env.OPENCODE_CONFIG)!;
  return { file, config: JSON.parse(file.content) as Config };
};

describe("buildOpencodeLaunch", () => {
  it("runs `opencode run --format json` with its own agent, the prompt after `--`, and a config in the private HOME", () => {
    const launch = buildOpencodeLaunch(input());
    expect(launch.argv).toEqual([
      "/opt/agents/opencode/bin/opencode",
      "run",
      "--pure",
      "--format",
      "json",
      "--agent",
      "switchyard",
      "--title",
      "switchyard step",
      // Its project folder is an empty one of HOME: a workspace's .opencode/ plugins never load.
      "--dir",
      "/home/step/.switchyard/project",
      "--",
      "Fix the bug.",
    ]);
    expect(launch.stdin).toBeUndefined();
    const { file, config } = configOf(launch);
    expect(file).toMatchObject({
      path: "/home/step/.config/opencode/switchyard.json",
      root: "home",
      mode: 0o600,
    });
    expect(config).toMatchObject({
      model: "switchyard/gpt-5",
      autoupdate: false,
      share: "disabled",
      provider: {
        switchyard: {
          npm: "@ai-sdk/openai-compatible",
          options: {
            baseURL: "http://127.0.0.1:8089/v1",
            apiKey: "{env:SWITCHYARD_GATEWAY_TOKEN}",
          },
          models: { "gpt-5": { name: "gpt-5" } },
        },
      },
      mcp: {
        switchyard: {
          type: "local",
          command: [
            "/usr/bin/node",
            "/opt/switchyard/bin.mjs",
            "mcp-serve",
            "--config",
            "/run/proxy.json",
          ],
          enabled: true,
        },
      },
      permission: {
        "*": "deny",
        switchyard_Read: "allow",
        switchyard_Write: "allow",
        switchyard_Bash: "allow",
      },
      agent: { switchyard: { mode: "primary" } },
    });
    expect(Object.keys(config.mcp)).toEqual(["switchyard"]);
    expect(config.agent.switchyard!.prompt).toBeUndefined();
    // The token travels in the environment only.
    expect(launch.files.some((f) => f.content.includes(TOKEN))).toBe(false);
  });

  it("sets the environment: private HOME and XDG folders, Node first on PATH, the token, nothing fetched", () => {
    const { env } = buildOpencodeLaunch(input());
    expect(env).toMatchObject({
      HOME: "/home/step",
      TMPDIR: "/tmp/step",
      PATH: "/opt/agents/node/bin:/usr/local/bin:/usr/bin:/bin",
      XDG_CONFIG_HOME: "/home/step/.config",
      XDG_DATA_HOME: "/home/step/.local/share",
      XDG_CACHE_HOME: "/home/step/.cache",
      XDG_STATE_HOME: "/home/step/.local/state",
      SWITCHYARD_GATEWAY_TOKEN: TOKEN,
      OPENCODE_DISABLE_PROJECT_CONFIG: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_SHARE: "1",
      npm_config_offline: "true",
    });
    expect(Object.keys(env).some((k) => /OPENAI|ANTHROPIC/.test(k))).toBe(false);
  });

  it("puts the system prompt in a file the agent's prompt names, so config syntax in it stays text", () => {
    const launch = buildOpencodeLaunch({
      ...input(),
      request: {
        prompt: "go",
        systemPrompt: "Be brief. {env:SWITCHYARD_GATEWAY_TOKEN}",
        options: {},
      },
    });
    const prompt = launch.files.find((f) => f.relativePath === ".switchyard/system-prompt.md")!;
    expect(prompt).toMatchObject({
      path: "/home/step/.switchyard/system-prompt.md",
      content: "Be brief. {env:SWITCHYARD_GATEWAY_TOKEN}",
    });
    expect(configOf(launch).config.agent.switchyard).toEqual({
      mode: "primary",
      prompt: "{file:/home/step/.switchyard/system-prompt.md}",
    });
    expect(configOf(launch).file.content).not.toContain("Be brief");
  });

  it("sends a long prompt on stdin", () => {
    const prompt = "x".repeat(OPENCODE_ARGUMENT_BYTES + 1);
    const launch = buildOpencodeLaunch({ ...input(), request: { prompt, options: {} } });
    expect(launch.stdin).toBe(prompt);
    expect(launch.argv).not.toContain("--");
    expect(launch.argv.join(" ").length).toBeLessThan(1000);
  });

  it("reads AWF's options: the model (openai/ prefix dropped), allowed_tools, dangerously_skip_permissions", () => {
    const launch = buildOpencodeLaunch(
      input(
        {},
        {
          model: "openai/gpt-4.1",
          allowed_tools: "read, switchyard_Bash",
          dangerously_skip_permissions: "true",
        },
      ),
    );
    const { config } = configOf(launch);
    expect(config.model).toBe("switchyard/gpt-4.1");
    expect(Object.keys(config.provider.switchyard!.models)).toEqual(["gpt-4.1"]);
    expect(config.permission).toEqual({
      "*": "deny",
      switchyard_Read: "allow",
      switchyard_Bash: "allow",
    });
    expect(launch.argv).toContain("--auto");
  });

  it("refuses bad options and a launch that is not confined to loopback and absolute paths", () => {
    expect(() => buildOpencodeLaunch(input({}, { allowed_tools: ["Edit"] }))).toThrow(
      /options.allowed_tools names "Edit"/,
    );
    expect(() => buildOpencodeLaunch(input({}, { model: 5 }))).toThrow(
      /options.model must be a model id/,
    );
    expect(() => buildOpencodeLaunch(input({}, { dangerously_skip_permissions: "yes" }))).toThrow(
      /true or false/,
    );
    expect(() =>
      buildOpencodeLaunch(
        input({ gateway: { baseUrl: "https://api.openai.com/v1", token: TOKEN } }),
      ),
    ).toThrow(/on loopback/);
    expect(() =>
      buildOpencodeLaunch(input({ gateway: { baseUrl: "http://127.0.0.1:1/v1", token: " " } })),
    ).toThrow(/token is empty/);
    expect(() => buildOpencodeLaunch(input({ homeDir: "home" }))).toThrow(/HOME must be absolute/);
    expect(() => buildOpencodeLaunch(input({ toolNames: ["bad name"] }))).toThrow(
      /proxy tool name/,
    );
  });
});

describe("buildOpencodeLaunch for a held call and a resume", () => {
  it("sets the proxy server's timeout (ms) from the step's tool timeout, else leaves the SDK's 60 s", () => {
    const server = (l: ReturnType<typeof buildOpencodeLaunch>) =>
      configOf(l).config.mcp.switchyard as unknown as { timeout?: number };
    expect(server(buildOpencodeLaunch(input({ toolTimeoutMs: 150_000 }))).timeout).toBe(150_000);
    expect(server(buildOpencodeLaunch(input())).timeout).toBeUndefined();
    // The same setting bounds the server's start: never below OpenCode's own 5 s.
    expect(server(buildOpencodeLaunch(input({ toolTimeoutMs: 1_500 }))).timeout).toBe(5_000);
  });

  it("resumes a session with `run --session <id>`, the prompt still after --", () => {
    const id = "ses_dc3502c93ffe37hzJlaXgXudGK";
    const { argv } = buildOpencodeLaunch(input({ resumeSessionId: id }));
    expect(argv.slice(argv.indexOf("--session"), argv.indexOf("--session") + 2)).toEqual([
      "--session",
      id,
    ]);
    expect(argv.slice(-2)).toEqual(["--", "Fix the bug."]);
  });
});
