/**
 * Gemini CLI as a CliProvider: the Gemini API (generateContent, streamGenerateContent)
 * through the gateway, launched as buildGeminiLaunch says with the step's proxy as its only
 * MCP server (in the settings of its private HOME), run by runGemini; its session is a chat
 * file under ~/.gemini/tmp.
 */
import type { CliProvider } from "../step/cli-step";
import { findSessionFiles } from "../step/session-files";
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
      ...(context.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: context.toolTimeoutMs }),
      ...(context.resume ? { resumeSessionId: context.resume.sessionId } : {}),
    }),
  run: (input) => runGemini(input),
  // The chat is ~/.gemini/tmp/<project>/chats/session-<time>-<first 8 of the id>.jsonl, the
  // project a short name for the folder the CLI ran in (~/.gemini/projects.json), marked by
  // the .project_root files; only the session's own chat is taken.
  sessionFiles: async (home, sessionId) => {
    const short = sessionId.slice(0, 8);
    const chats = await findSessionFiles(home, ".gemini/tmp", (relative, name) => {
      const parts = relative.split("/");
      return (
        parts.length === 5 &&
        parts[3] === "chats" &&
        name.startsWith("session-") &&
        name.endsWith(`-${short}.jsonl`)
      );
    });
    if (chats.length === 0) return [];
    const marks = await findSessionFiles(
      home,
      ".gemini",
      (relative, name) => name === ".project_root" || relative === ".gemini/projects.json",
    );
    return [...marks, ...chats].sort();
  },
};
