/**
 * The fixture MCP server whose `report` tool runs as a task (test/fixtures/fixture-mcp-task-server.mjs),
 * started as a process of its own so that it outlives whichever worker calls it: the 2025-11-25
 * tasks form, or with `ext` the 2026-07-28 tasks extension.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const FIXTURE = fileURLToPath(new URL("../fixtures/fixture-mcp-task-server.mjs", import.meta.url));

export type ServerTask = { taskId: string; status: string; args: Record<string, unknown> };

export const startTaskServer = async (options: { ext?: boolean } = {}) => {
  const child = spawn(process.execPath, [FIXTURE, ...(options.ext ? ["--ext"] : [])], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`the task server exited (${code})`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/mcp`,
    /** The team connector "reports" that reaches it, as an admin saves it. */
    connector: {
      id: "reports",
      name: "Reports",
      transport: "http" as const,
      url: `${base}/mcp`,
      auth: "none" as const,
      lanes: ["*"],
    },
    /** Every task the server made, oldest first. */
    tasks: async () => (await (await fetch(`${base}/tasks`)).json()) as ServerTask[],
    close: () => void child.kill(),
  };
};
