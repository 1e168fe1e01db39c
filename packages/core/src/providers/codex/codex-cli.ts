/**
 * Codex as a CliProvider: the OpenAI Responses API through the gateway, launched as
 * buildCodexLaunch says with the step's proxy as its only MCP server (its config.toml in
 * the private CODEX_HOME), run by runCodex.
 */
import type { CliProvider } from "../step/cli-step";
import { buildCodexLaunch } from "./build-codex-launch";
import { runCodex } from "./run-codex";

export const codexCli: CliProvider = {
  vendor: "openai",
  launch: buildCodexLaunch,
  run: runCodex,
};
