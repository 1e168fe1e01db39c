/**
 * Codex as a CliProvider: the OpenAI Responses API through the gateway, launched as
 * buildCodexLaunch says with the step's proxy as its only MCP server (its config.toml in
 * the private CODEX_HOME), run by runCodex; its session is its rollout file in CODEX_HOME.
 */
import type { CliProvider } from "../step/cli-step";
import { findSessionFiles } from "../step/session-files";
import { buildCodexLaunch } from "./build-codex-launch";
import { runCodex } from "./run-codex";

export const codexCli: CliProvider = {
  vendor: "openai",
  launch: buildCodexLaunch,
  run: runCodex,
  // One rollout file per session, in a folder of its day: rollout-<time>-<id>.jsonl.
  sessionFiles: (home, sessionId) =>
    findSessionFiles(
      home,
      ".codex/sessions",
      (_, name) => name.startsWith("rollout-") && name.endsWith(`-${sessionId}.jsonl`),
    ),
};
