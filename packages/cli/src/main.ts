/**
 * The `switchyard` command line: reads argv and the environment, calls core, and maps
 * errors to AWF's exit codes (USER 1, WORKFLOW 2, EXECUTION 3, SYSTEM 4).
 */
import { AppError } from "@switchyard/core/errors";

type Command = { summary: string; run: (argv: string[]) => Promise<number> };

const commands: Record<string, Command> = {};

const usage = () =>
  [
    "usage: switchyard <command> [options]",
    "",
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`),
  ].join("\n");

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
