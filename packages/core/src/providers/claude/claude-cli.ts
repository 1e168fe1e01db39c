/**
 * Claude Code as a CliProvider: the Anthropic Messages API through the gateway, launched as
 * buildClaudeLaunch says with the step's proxy as its only MCP server (its config a file in
 * the private HOME), run by runClaude; its session is the transcript in ~/.claude/projects.
 */
import type { CliProvider } from "../step/cli-step";
import { findSessionFiles } from "../step/session-files";
import { buildClaudeLaunch } from "./build-claude-launch";
import { buildClaudeMcpConfig } from "./claude-mcp-config";
import { runClaude } from "./run-claude";

const MCP_CONFIG = ".switchyard/mcp.json";

export const claudeCli: CliProvider = {
  vendor: "anthropic",
  launch: (context) => {
    const home = context.homeDir === "/" ? "" : context.homeDir;
    const mcpConfigPath = `${home}/${MCP_CONFIG}`;
    const launch = buildClaudeLaunch({
      request: context.request,
      cliPath: context.agent.command,
      nodeBinDir: context.agent.pathPrefix,
      homeDir: context.homeDir,
      tmpDir: context.tmpDir,
      mcpConfigPath,
      gateway: context.gateway,
      builtinsIntercepted: true,
      toolNames: context.toolNames,
      runsAsRoot: context.runsAsRoot,
      ...(context.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: context.toolTimeoutMs }),
      ...(context.resume ? { resumeSessionId: context.resume.sessionId } : {}),
    });
    const [script, ...rest] = context.proxy.args;
    const config = buildClaudeMcpConfig({
      node: context.proxy.command,
      switchyardBin: script!,
      proxyConfigPath: rest.at(-1)!,
      ...(context.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: context.toolTimeoutMs }),
    });
    return {
      ...launch,
      files: [
        ...launch.files,
        {
          path: mcpConfigPath,
          root: "home",
          relativePath: MCP_CONFIG,
          content: config,
          mode: 0o600,
        },
      ],
    };
  },
  run: (input) => runClaude({ ...input, launch: input.launch }),
  // The transcript is keyed by the folder the CLI ran in (its name made a file name), and
  // a session's large tool results go in a folder named after it.
  sessionFiles: (home, sessionId) =>
    findSessionFiles(home, ".claude/projects", (relative) => {
      const [, , , name, inside] = relative.split("/");
      return name === `${sessionId}.jsonl` ? inside === undefined : name === sessionId;
    }),
};
