/**
 * `switchyard mcp-serve --config <file>`: the per-step MCP proxy. Reads the config, picks
 * the environment Bash commands may see and where their sandbox keeps its folders, and
 * serves MCP on stdin/stdout until stdin closes, the step channel closes, or SIGTERM/SIGINT
 * arrives.
 */
import { tmpdir } from "node:os";
import { AppError } from "@switchyard/core/errors";
import { loadProxyConfig, serveProxy } from "@switchyard/core/mcp";
import { stepUidBaseFrom } from "./local-sandbox";

const DEFAULT_SHELL_ENV = [
  "PATH",
  "HOME",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TERM",
  "TMPDIR",
  "USER",
  "LOGNAME",
  "SHELL",
  "TZ",
];

const USAGE = "usage: switchyard mcp-serve --config <file>";

const configPath = (argv: string[]): string => {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--config") {
      const value = argv[i + 1];
      if (value) return value;
    } else if (arg.startsWith("--config=")) {
      return arg.slice("--config=".length);
    }
  }
  throw new AppError("USER.INPUT.VALIDATION_FAILED", `mcp-serve needs --config <file>\n${USAGE}`);
};

const pickEnv = (names: readonly string[]): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
};

export const runMcpServe = async (argv: string[]): Promise<number> => {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = await loadProxyConfig(configPath(argv));
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  // A proxy that crashes says why in one line and exits non-zero; its children die with their group.
  const onCrash = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`switchyard mcp-serve: crashed: ${message.split("\n")[0]}\n`);
    process.exit(4);
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);
  try {
    const exit = await serveProxy({
      config,
      stdin: process.stdin,
      stdout: process.stdout,
      shellEnv: pickEnv(config.shell_env ?? DEFAULT_SHELL_ENV),
      bashSandbox: {
        scratchDir: tmpdir(),
        stepUidBase: stepUidBaseFrom(process.env),
        onLevel: (level, uid, warnings) => {
          const where = uid === undefined ? level : `${level} (uid ${uid})`;
          process.stderr.write(`switchyard mcp-serve: Bash sandbox: ${where}\n`);
          for (const w of warnings) process.stderr.write(`switchyard mcp-serve: ${w}\n`);
        },
      },
      signal: stop.signal,
      ...(config.log_calls
        ? {
            log: (entry: Record<string, unknown>) =>
              process.stderr.write(`${JSON.stringify(entry)}\n`),
          }
        : {}),
    });
    if (exit.reason === "channel_closed") {
      process.stderr.write(
        `switchyard mcp-serve: the step channel closed${exit.detail ? ` (${exit.detail})` : ""}\n`,
      );
    }
    return 0;
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    process.off("uncaughtException", onCrash);
    process.off("unhandledRejection", onCrash);
    process.stdin.destroy();
  }
};
