/**
 * OpenCode as a CliProvider: the OpenAI Chat Completions API through the gateway, launched as
 * buildOpencodeLaunch says with the step's proxy as its only MCP server, run by runOpencode.
 * OpenCode starts its MCP servers only after its own start-up (20-30 s on a busy 2-core host,
 * a fresh private HOME each step), so its proxy has longer to say ready.
 */
import type { CliProvider } from "../step/cli-step";
import { buildOpencodeLaunch } from "./build-opencode-launch";
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
    }),
  run: runOpencode,
  proxyReadyMs: 60_000,
};
