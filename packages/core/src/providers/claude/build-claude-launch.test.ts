import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isAppError } from "../../errors/app-error";
import { writeLaunchFiles } from "../launch-files";
import {
  buildClaudeLaunch,
  CLAUDE_ARGUMENT_BYTES,
  type ClaudeLaunchInput,
} from "./build-claude-launch";
import { buildClaudeMcpConfig } from "./claude-mcp-config";

const TOKEN = "gw-step-7f3a9c21d4e5";
const BUILTINS = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"];

const input = (
  over: Partial<ClaudeLaunchInput> = {},
  options: Record<string, unknown> = {},
): ClaudeLaunchInput => ({
  request: { prompt: "Fix the bug.", options },
  cliPath: "/opt/agents/claude/bin/claude",
  nodeBinDir: "/opt/agents/node/bin",
  homeDir: "/home/step",
  tmpDir: "/tmp",
  mcpConfigPath: "/tmp/switchyard/mcp.json",
  gateway: { baseUrl: "http://127.0.0.1:41000", token: TOKEN },
  builtinsIntercepted: true,
  toolNames: BUILTINS,
  runsAsRoot: false,
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

/** The values that follow a flag, up to the next flag. */
const valuesOf = (argv: string[], flag: string) => {
  const at = argv.indexOf(flag);
  if (at < 0) return undefined;
  const rest = argv.slice(at + 1);
  const end = rest.findIndex((a) => a.startsWith("-"));
  return end < 0 ? rest : rest.slice(0, end);
};

describe("buildClaudeLaunch", () => {
  it("builds print mode with stream-json, the proxy as the only MCP server, user settings and the prompt after --", () => {
    const { argv, stdin } = buildClaudeLaunch(input());
    expect(argv).toEqual([
      "/opt/agents/claude/bin/claude",
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--mcp-config=/tmp/switchyard/mcp.json",
      "--strict-mcp-config",
      "--setting-sources",
      "user",
      "--tools",
      "",
      "--allowedTools",
      ...BUILTINS.map((t) => `mcp__switchyard__${t}`),
      "--",
      "Fix the bug.",
    ]);
    expect(stdin).toBeUndefined();
  });

  it("allows the proxy's tools by their exact names, connector and search tools included, never a wildcard", () => {
    const names = ["Read", "github_create_issue", "tool_search", "call_tool"];
    const { argv } = buildClaudeLaunch(input({ toolNames: names }));
    expect(valuesOf(argv, "--allowedTools")).toEqual(names.map((n) => `mcp__switchyard__${n}`));
    expect(argv.some((a) => a.includes("*"))).toBe(false);
    expect(argv).not.toContain("mcp__switchyard");
  });

  it("narrows to allowed_tools, matched without case and with or without the prefix", () => {
    const { argv } = buildClaudeLaunch(
      input({}, { allowed_tools: "read, mcp__switchyard__Grep,GREP" }),
    );
    expect(valuesOf(argv, "--allowedTools")).toEqual([
      "mcp__switchyard__Read",
      "mcp__switchyard__Grep",
    ]);
    const listed = buildClaudeLaunch(input({}, { allowed_tools: ["Write"] }));
    expect(valuesOf(listed.argv, "--allowedTools")).toEqual(["mcp__switchyard__Write"]);
  });

  it("refuses an allowed_tools name that is no tool of the step while the proxy serves the built-ins", () => {
    const unknown = failure(() => buildClaudeLaunch(input({}, { allowed_tools: "Read,WebFetch" })));
    expect(unknown).toMatchObject({
      code: "USER.INPUT.VALIDATION_FAILED",
      path: "options.allowed_tools",
    });
    expect(unknown.message).toContain('"WebFetch"');
    expect(failure(() => buildClaudeLaunch(input({}, { allowed_tools: 3 })))).toMatchObject({
      code: "USER.INPUT.VALIDATION_FAILED",
      path: "options.allowed_tools",
    });
  });

  it("keeps Claude's own tools when built-ins are not intercepted, allowing native names as given but never a flag", () => {
    const { argv } = buildClaudeLaunch(
      input(
        { builtinsIntercepted: false, toolNames: ["fx_echo"] },
        { allowed_tools: "Bash(git *),Read,fx_echo" },
      ),
    );
    expect(argv).not.toContain("--tools");
    expect(valuesOf(argv, "--allowedTools")).toEqual([
      "Bash(git *)",
      "Read",
      "mcp__switchyard__fx_echo",
    ]);
    expect(
      failure(() =>
        buildClaudeLaunch(
          input(
            { builtinsIntercepted: false },
            { allowed_tools: "Read,--dangerously-skip-permissions" },
          ),
        ),
      ),
    ).toMatchObject({ code: "USER.INPUT.VALIDATION_FAILED", path: "options.allowed_tools" });
  });

  it("passes model, max_turns and the system prompt as single --flag=value arguments", () => {
    const { argv } = buildClaudeLaunch({
      ...input({}, { model: "claude-sonnet-4-5", max_turns: "7" }),
      request: {
        prompt: "-starts with a dash",
        systemPrompt: "--dangerously-skip-permissions is not a flag here",
        options: { model: "claude-sonnet-4-5", max_turns: "7" },
      },
    });
    expect(argv).toContain("--model=claude-sonnet-4-5");
    expect(argv).toContain("--max-turns=7");
    expect(argv).toContain("--system-prompt=--dangerously-skip-permissions is not a flag here");
    expect(argv).not.toContain("--dangerously-skip-permissions");
    expect(argv.slice(-2)).toEqual(["--", "-starts with a dash"]);
    expect(failure(() => buildClaudeLaunch(input({}, { max_turns: 0 })))).toMatchObject({
      code: "USER.INPUT.VALIDATION_FAILED",
      path: "options.max_turns",
    });
    expect(failure(() => buildClaudeLaunch(input({}, { model: 12 })))).toMatchObject({
      path: "options.model",
    });
  });

  it("moves a prompt too long for one argument to stdin and a long system prompt into a file in HOME", () => {
    const prompt = `${"p".repeat(CLAUDE_ARGUMENT_BYTES)} end`;
    const system = `${"s".repeat(CLAUDE_ARGUMENT_BYTES)} end`;
    const launch = buildClaudeLaunch({
      ...input(),
      request: { prompt, systemPrompt: system, options: {} },
    });
    expect(launch.stdin).toBe(prompt);
    expect(launch.argv).not.toContain("--");
    expect(launch.argv.join(" ")).not.toContain("p".repeat(1000));
    expect(launch.argv).toContain("--system-prompt-file=/home/step/.switchyard/system-prompt.md");
    expect(launch.files).toContainEqual({
      path: "/home/step/.switchyard/system-prompt.md",
      root: "home",
      relativePath: ".switchyard/system-prompt.md",
      content: system,
      mode: 0o600,
    });
  });

  it("maps dangerously_skip_permissions as AWF does, and refuses it when the CLI would run as root", () => {
    const skip = buildClaudeLaunch(input({}, { dangerously_skip_permissions: "true" }));
    expect(skip.argv).toContain("--dangerously-skip-permissions");
    const settings = JSON.parse(skip.files[0]!.content) as Record<string, unknown>;
    expect(settings.permissions).toBeUndefined();
    expect(
      buildClaudeLaunch(input({}, { dangerously_skip_permissions: false })).argv,
    ).not.toContain("--dangerously-skip-permissions");
    const asRoot = failure(() =>
      buildClaudeLaunch(input({ runsAsRoot: true }, { dangerously_skip_permissions: true })),
    );
    expect(asRoot).toMatchObject({
      code: "USER.PROVIDER.SKIP_PERMISSIONS_AS_ROOT",
      path: "options.dangerously_skip_permissions",
    });
    expect(asRoot.message).toContain("root");
    expect(
      failure(() => buildClaudeLaunch(input({}, { dangerously_skip_permissions: "yes" }))),
    ).toMatchObject({
      code: "USER.INPUT.VALIDATION_FAILED",
      path: "options.dangerously_skip_permissions",
    });
  });

  it("gives the CLI only its allow-listed environment: Node first on PATH, the gateway and its per-step token", () => {
    const { env } = buildClaudeLaunch(input());
    expect(env).toEqual({
      HOME: "/home/step",
      PATH: "/opt/agents/node/bin:/usr/local/bin:/usr/bin:/bin",
      TMPDIR: "/tmp",
      LANG: "C.UTF-8",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:41000",
      ANTHROPIC_API_KEY: TOKEN,
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
    });
  });

  it("never carries a key other than the gateway token: not in argv, files or the MCP config", () => {
    const launch = buildClaudeLaunch(input({}, { api_key: "sk-ant-api03-real-key-value" }));
    const everything =
      JSON.stringify(launch) +
      buildClaudeMcpConfig({
        node: "/opt/node/bin/node",
        switchyardBin: "/opt/switchyard/bin/switchyard.mjs",
        proxyConfigPath: "/tmp/switchyard/proxy.json",
      });
    expect(everything).not.toContain("sk-ant");
    expect(everything.split(TOKEN)).toHaveLength(2); // once: ANTHROPIC_API_KEY
  });

  it("refuses a gateway that is not http on loopback, and relative paths", () => {
    for (const baseUrl of ["https://api.anthropic.com", "file:///x", "not a url"])
      expect(
        failure(() => buildClaudeLaunch(input({ gateway: { baseUrl, token: TOKEN } }))).code,
      ).toBe("SYSTEM.CONFIG");
    expect(
      buildClaudeLaunch(input({ gateway: { baseUrl: "http://[::1]:9/v", token: TOKEN } })).env
        .ANTHROPIC_BASE_URL,
    ).toBe("http://[::1]:9/v");
    expect(failure(() => buildClaudeLaunch(input({ homeDir: "home" }))).code).toBe("SYSTEM.CONFIG");
    expect(failure(() => buildClaudeLaunch(input({ toolNames: ["x".repeat(48)] }))).code).toBe(
      "SYSTEM.CONFIG",
    );
  });

  it("writes the settings into the private HOME, never the workspace, keeping it quiet and without hooks or bypass", async () => {
    const launch = buildClaudeLaunch(input());
    expect(launch.files.map((f) => f.path)).toEqual(["/home/step/.claude/settings.json"]);
    expect(launch.files.every((f) => f.root === "home" && f.mode === 0o600)).toBe(true);
    expect(JSON.parse(launch.files[0]!.content)).toEqual({
      disableAllHooks: true,
      enableAllProjectMcpServers: false,
      autoMemoryEnabled: false,
      spinnerTipsEnabled: false,
      promptSuggestionEnabled: false,
      feedbackSurveyRate: 0,
      permissions: { disableBypassPermissionsMode: "disable" },
    });

    const dir = await mkdtemp(path.join(tmpdir(), "claude-launch-"));
    try {
      await writeLaunchFiles(launch.files, { home: path.join(dir, "home") });
      const written = path.join(dir, "home/.claude/settings.json");
      expect(await readFile(written, "utf8")).toBe(launch.files[0]!.content);
      expect((await stat(written)).mode & 0o777).toBe(0o600);
      expect((await stat(path.join(dir, "home/.claude"))).mode & 0o777).toBe(0o700);
      await expect(
        writeLaunchFiles([{ ...launch.files[0]!, relativePath: "../escape.json" }], {
          home: path.join(dir, "home"),
        }),
      ).rejects.toThrow(/not inside its home folder/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("buildClaudeMcpConfig", () => {
  it("starts the proxy with node, the switchyard bin and mcp-serve --config", () => {
    const text = buildClaudeMcpConfig({
      node: "/opt/node/bin/node",
      switchyardBin: "/opt/switchyard/packages/cli/bin/switchyard.mjs",
      proxyConfigPath: "/tmp/switchyard/proxy.json",
    });
    expect(JSON.parse(text)).toEqual({
      mcpServers: {
        switchyard: {
          type: "stdio",
          command: "/opt/node/bin/node",
          args: [
            "/opt/switchyard/packages/cli/bin/switchyard.mjs",
            "mcp-serve",
            "--config",
            "/tmp/switchyard/proxy.json",
          ],
        },
      },
    });
    expect(() =>
      buildClaudeMcpConfig({ node: "node", switchyardBin: "/x", proxyConfigPath: "/y" }),
    ).toThrow(/absolute node/);
  });
});

describe("buildClaudeLaunch for a held call and a resume", () => {
  it("sets MCP_TOOL_TIMEOUT and the proxy server's own timeout (which also lifts the 30 min silence limit)", () => {
    const { env } = buildClaudeLaunch(input({ toolTimeoutMs: 150_000.2 }));
    expect(env.MCP_TOOL_TIMEOUT).toBe("150001");
    expect(buildClaudeLaunch(input()).env.MCP_TOOL_TIMEOUT).toBeUndefined();
    const config = JSON.parse(
      buildClaudeMcpConfig({
        node: "/usr/bin/node",
        switchyardBin: "/opt/switchyard/switchyard.mjs",
        proxyConfigPath: "/etc/switchyard/proxy.json",
        toolTimeoutMs: 500,
      }),
    ) as { mcpServers: { switchyard: { timeout?: number } } };
    // Below 1000 ms Claude Code ignores the server's timeout: never given so.
    expect(config.mcpServers.switchyard.timeout).toBe(1000);
  });

  it("resumes a session with --resume=<id>, the prompt still after --", () => {
    const id = "5e75fb75-3903-4d7c-b903-db0abe1ce942";
    const { argv } = buildClaudeLaunch(input({ resumeSessionId: id }));
    expect(argv).toContain(`--resume=${id}`);
    expect(argv.slice(-2)).toEqual(["--", "Fix the bug."]);
    expect(argv.indexOf(`--resume=${id}`)).toBeLessThan(argv.indexOf("--"));
  });
});
