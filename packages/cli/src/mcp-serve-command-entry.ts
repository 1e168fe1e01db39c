/**
 * Runs `mcp-serve` directly (`node --import tsx packages/cli/src/mcp-serve-command-entry.ts
 * --config <file>`), without the command table, for tests and for measuring startup.
 */
import { AppError } from "@switchyard/core/errors";
import { runMcpServe } from "./mcp-serve-command";

try {
  process.exitCode = await runMcpServe(process.argv.slice(2));
} catch (error) {
  const message =
    error instanceof AppError
      ? `[${error.code}] ${error.userMessage}`
      : error instanceof Error
        ? error.message
        : String(error);
  process.stderr.write(`switchyard mcp-serve: ${message.split("\n")[0]}\n`);
  process.exitCode = error instanceof AppError ? error.exitCode : 4;
}
// Nothing may keep a finished proxy alive (a stray timer, a half-closed pipe).
setTimeout(() => process.exit(), 200).unref();
