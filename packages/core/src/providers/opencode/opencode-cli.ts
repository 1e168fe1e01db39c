/**
 * OpenCode as a CliProvider: the OpenAI Chat Completions API through the gateway, launched as
 * buildOpencodeLaunch says with the step's proxy as its only MCP server, run by runOpencode.
 * OpenCode starts its MCP servers only after its own start-up (20-30 s on a busy 2-core host,
 * a fresh private HOME each step), so its proxy has longer to say ready.
 */
import type { CliProvider } from "../step/cli-step";
import { findSessionFiles } from "../step/session-files";
import { buildOpencodeLaunch } from "./build-opencode-launch";

const OPENCODE_DATA_DIR = ".local/share/opencode";
const OPENCODE_SESSION_FILES = ["opencode.db", "opencode.db-wal"];
import { runOpencode } from "./run-opencode";

export const opencodeCli: CliProvider = {
  vendor: "openai",
  launch: (context) =>
    buildOpencodeLaunch({
      request: context.request,
      cliPath: context.agent.command,
      nodeBinDir: context.agent.pathPrefix,
      homeDir: context.homeDir,
      tmpDir: context.tmpDir,
      proxy: context.proxy,
      gateway: context.gateway,
      toolNames: context.toolNames,
      ...(context.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: context.toolTimeoutMs }),
      ...(context.resume ? { resumeSessionId: context.resume.sessionId } : {}),
    }),
  run: runOpencode,
  proxyReadyMs: 60_000,
  // Its sessions are rows of one SQLite database in its data folder, which in the step's
  // private HOME holds this step's session only: the database and its write-ahead log (the
  // shared-memory index is rebuilt).
  sessionFiles: (home) =>
    findSessionFiles(home, OPENCODE_DATA_DIR, (relative) =>
      OPENCODE_SESSION_FILES.includes(relative.slice(OPENCODE_DATA_DIR.length + 1)),
    ),
};
