/**
 * buildGeminiLaunch: the argument list, environment and HOME files a gemini step starts
 * with, and the options and inputs it refuses.
 */
import { describe, expect, it } from "vitest";
import { isAppError } from "../../errors/app-error";
import {
  buildGeminiLaunch,
  GEMINI_ARGUMENT_BYTES,
  type GeminiLaunchInput,
} from "./build-gemini-launch";
import { GEMINI_DEFAULT_MODEL } from "./gemini-options";

const TOKEN = "gw-step-1f2e3d4c5b6a";
const base: GeminiLaunchInput = {
  request: { prompt: "Fix the bug.", options: { model: "gemini-2.5-flash" } },
  cli: { command: "/opt/agents/node/bin/node", args: ["/opt/agents/gemini/bundle/gemini.js"] },
  nodeBinDir: "/opt/agents/node/bin",
  homeDir: "/home/step",
  tmpDir: "/tmp/step",
  proxy: {
    command: "/opt/switchyard/node",
    args: ["/opt/switchyard/switchyard.mjs", "mcp-serve", "--config", "/run/switchyard/proxy.json"],
  },
  gateway: { baseUrl: "http://127.0.0.1:8089", token: TOKEN },
  toolNames: ["Read", "Write", "Edit", "Bash", "Glob", "Grep"],
};

const launch = (over: Partial<GeminiLaunchInput> = {}, options?: Record<string, unknown>) =>
  buildGeminiLaunch({
    ...base,
    ...over,
    ...(options ? { request: { ...base.request, options } } : {}),
  });

type Settings = {
  mcpServers: Record<
    string,
    { command: string; args: string[]; env: Record<string, string>; trust: boolean }
  >;
  tools: { core: string[] };
  model: { name: string; maxSessionTurns?: number };
  [key: string]: unknown;
};
const settingsOf = (l: ReturnType<typeof launch>) => {
  const file = l.files.find((f) => f.relativePath === ".gemini/settings.json")!;
  return JSON.parse(file.content) as Settings;
};

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return isAppError(error) ? `${error.code}: ${error.message}` : String(error);
  }
  return "no error";
};

describe("buildGeminiLaunch", () => {
  it("starts the CLI headless in its private HOME with stream-json, the model, and the proxy as its only MCP server", () => {
    const l = launch();
    expect(l.argv).toEqual([
      "/usr/bin/env",
      "--chdir=/home/step",
      "/opt/agents/node/bin/node",
      "/opt/agents/gemini/bundle/gemini.js",
      "--output-format=stream-json",
      "--model=gemini-2.5-flash",
      "--allowed-mcp-server-names=switchyard",
      "--approval-mode=default",
      "--prompt=Fix the bug.",
    ]);
    expect(l.stdin).toBeUndefined();
    expect(l.env).toEqual({
      HOME: "/home/step",
      PATH: "/opt/agents/node/bin:/usr/local/bin:/usr/bin:/bin",
      TMPDIR: "/tmp/step",
      LANG: "C.UTF-8",
      GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:8089",
      GEMINI_API_KEY: TOKEN,
      GEMINI_CLI_TRUST_WORKSPACE: "true",
      GEMINI_CLI_NO_RELAUNCH: "true",
      NO_BROWSER: "true",
    });
  });

  it("writes settings: the trusted proxy with the environment it needs, only its tools, telemetry and updates off", () => {
    const l = launch();
    expect(l.files.map((f) => [f.path, f.root, f.mode])).toEqual([
      ["/home/step/.gemini/settings.json", "home", 0o600],
    ]);
    const s = settingsOf(l);
    expect(s.mcpServers).toEqual({
      switchyard: {
        command: "/opt/switchyard/node",
        args: [
          "/opt/switchyard/switchyard.mjs",
          "mcp-serve",
          "--config",
          "/run/switchyard/proxy.json",
        ],
        env: {
          HOME: "/home/step",
          PATH: "/opt/agents/node/bin:/usr/local/bin:/usr/bin:/bin",
          TMPDIR: "/tmp/step",
          LANG: "C.UTF-8",
        },
        trust: true,
      },
    });
    expect(s.tools.core).toEqual(base.toolNames.map((n) => `mcp_switchyard_${n}`));
    expect(s).toMatchObject({
      security: { auth: { selectedType: "gemini-api-key" } },
      mcp: { allowed: ["switchyard"] },
      model: { name: "gemini-2.5-flash" },
      hooksConfig: { enabled: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    });
    // No secret in any file.
    expect(JSON.stringify(l.files)).not.toContain(TOKEN);
  });

  it("puts the system prompt in a file the CLI reads through GEMINI_SYSTEM_MD, and a long prompt on stdin", () => {
    const prompt = "x".repeat(GEMINI_ARGUMENT_BYTES + 1);
    const l = buildGeminiLaunch({
      ...base,
      request: { prompt, systemPrompt: "You review code.", options: {} },
    });
    expect(l.env.GEMINI_SYSTEM_MD).toBe("/home/step/.switchyard/system-prompt.md");
    expect(l.files.find((f) => f.path === l.env.GEMINI_SYSTEM_MD)!.content).toBe(
      "You review code.",
    );
    expect(l.stdin).toBe(prompt);
    expect(l.argv.at(-1)).toBe("--prompt=");
    expect(l.argv).toContain(`--model=${GEMINI_DEFAULT_MODEL}`);
  });

  it("reads AWF's options: allowed_tools narrows the proxy's tools, max_turns and dangerously_skip_permissions", () => {
    const l = launch(
      {},
      {
        model: "gemini-2.5-pro",
        allowed_tools: "read, mcp_switchyard_Grep",
        max_turns: "12",
        dangerously_skip_permissions: "true",
      },
    );
    const s = settingsOf(l);
    expect(s.tools.core).toEqual(["mcp_switchyard_Read", "mcp_switchyard_Grep"]);
    expect(s.model).toEqual({ name: "gemini-2.5-pro", maxSessionTurns: 12 });
    expect(l.argv).toContain("--approval-mode=yolo");
  });

  it("refuses options it cannot honour and launches that would misbehave", () => {
    expect(codeOf(() => launch({}, { allowed_tools: ["WebFetch"] }))).toMatch(
      /^USER.INPUT.VALIDATION_FAILED: options.allowed_tools names "WebFetch"/,
    );
    expect(codeOf(() => launch({}, { dangerously_skip_permissions: "yes" }))).toMatch(
      /^USER.INPUT.VALIDATION_FAILED/,
    );
    expect(codeOf(() => launch({}, { model: 3 }))).toMatch(
      /^USER.INPUT.VALIDATION_FAILED: options.model/,
    );
    expect(
      codeOf(() =>
        launch({ gateway: { baseUrl: "https://generativelanguage.googleapis.com", token: TOKEN } }),
      ),
    ).toMatch(/^SYSTEM.CONFIG: .*loopback/);
    expect(
      codeOf(() => launch({ gateway: { baseUrl: "http://127.0.0.1:8089", token: " " } })),
    ).toMatch(/^SYSTEM.CONFIG: .*token is empty/);
    // Gemini CLI would expand "$..." in its settings' strings.
    expect(codeOf(() => launch({ homeDir: "/home/$USER" }))).toMatch(/^SYSTEM.CONFIG/);
    expect(
      codeOf(() => launch({ proxy: { command: "/bin/node", args: ["--config", "/run/$X.json"] } })),
    ).toMatch(/^SYSTEM.CONFIG/);
    expect(codeOf(() => launch({ toolNames: ["bad name"] }))).toMatch(/^SYSTEM.CONFIG/);
  });
});

describe("buildGeminiLaunch for a held call and a resume", () => {
  it("sets the proxy server's timeout (ms) from the step's tool timeout, else leaves the CLI's 10 min", () => {
    const server = (l: ReturnType<typeof launch>) =>
      settingsOf(l).mcpServers.switchyard as unknown as { timeout?: number };
    expect(server(launch({ toolTimeoutMs: 900_000 })).timeout).toBe(900_000);
    expect(server(launch()).timeout).toBeUndefined();
  });

  it("resumes a session with --resume=<id> before the prompt", () => {
    const id = "8fdc3470-6aa4-43a4-ba9f-b7ba3317580f";
    const { argv } = launch({ resumeSessionId: id });
    expect(argv.at(-2)).toBe(`--resume=${id}`);
    expect(argv.at(-1)).toBe(`--prompt=${base.request.prompt}`);
  });
});
