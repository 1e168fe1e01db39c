/**
 * The `switchyard` command line: reads argv and the environment, calls core, and maps
 * errors to AWF's exit codes (USER 1, WORKFLOW 2, EXECUTION 3, SYSTEM 4).
 */
import { AppError } from "@switchyard/core/errors";
import type { Io } from "./validate-command";

type Command = { summary: string; run: (argv: string[]) => Promise<number> };

const io: Io = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

// Each command loads only its own code, so `mcp-serve` (started once per agent step)
// never pays for the workflow engine.
const commands: Record<string, Command> = {
  validate: {
    summary: "check workflow files: validate [--json] [--catalog file.json] <file>...",
    run: async (argv) => (await import("./validate-command")).runValidate(argv, io, process.env),
  },
  run: {
    summary:
      "run a workflow locally, every step sandboxed: run <file> [--input key=value]... (run --help)",
    run: async (argv) => (await import("./run-command")).runRun(argv, io, process.env),
  },
  login: {
    summary: "log in to a Switchyard server with an API token: login <url> (login --help)",
    run: async (argv) => (await import("./login-command")).runLogin(argv, io, process.env),
  },
  workflows: {
    summary: "the server's workflows: workflows list | push <file> | pull <name>",
    run: async (argv) => (await import("./workflows-command")).runWorkflows(argv, io, process.env),
  },
  runs: {
    summary:
      "runs on the server: runs start <workflow> [--input k=v] [--follow] | list | get | cancel | logs",
    run: async (argv) => (await import("./runs-command")).runRuns(argv, io, process.env),
  },
  waits: {
    summary: "waits for your answer on the server: waits list | answer <id> --approve|--deny",
    run: async (argv) => (await import("./waits-command")).runWaits(argv, io, process.env),
  },
  "mcp-serve": {
    summary: "serve a step's tools over stdio MCP: mcp-serve --config <file>",
    run: async (argv) => (await import("./mcp-serve-command")).runMcpServe(argv),
  },
};

const usage = () =>
  [
    "usage: switchyard <command> [options]",
    "",
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`),
  ].join("\n");

/** Runs the command `argv` names and answers its exit code. */
export const main = async (argv: string[]): Promise<number> => {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${usage()}\n`);
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`switchyard: unknown command "${name}"\n${usage()}\n`);
    return 1;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof AppError) {
      process.stderr.write(`switchyard: [${error.code}] ${error.userMessage}\n`);
      return error.exitCode;
    }
    process.stderr.write(`switchyard: ${error instanceof Error ? error.message : String(error)}\n`);
    return 4;
  }
};
