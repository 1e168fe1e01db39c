/**
 * Gemini CLI as a CliProvider: the Gemini API (generateContent, streamGenerateContent)
 * through the gateway, launched as buildGeminiLaunch says with the step's proxy as its only
 * MCP server (in the settings of its private HOME), run by runGemini.
 */
import type { CliProvider } from "../step/cli-step";
import { buildGeminiLaunch } from "./build-gemini-launch";
import { runGemini } from "./run-gemini";

export const geminiCli: CliProvider = {
  vendor: "gemini",
  launch: (context) =>
    buildGeminiLaunch({
      request: context.request,
      cli: { command: context.agent.command, args: context.agent.args },
      nodeBinDir: context.agent.pathPrefix,
      homeDir: context.homeDir,
      tmpDir: context.tmpDir,
      proxy: context.proxy,
      gateway: context.gateway,
      toolNames: context.toolNames,
    }),
  run: (input) => runGemini(input),
};
