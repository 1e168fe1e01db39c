/**
 * `scripted-model --script <file.json> [--port N] [--host H]`: serves the script until
 * SIGINT/SIGTERM, prints the base URL on stdout and one line per request on stderr, and
 * exits 1 when any request failed the script (unmet expectation, no turn left, ...).
 */
import { isAppError } from "@switchyard/core/errors";
import { startScriptedModel } from "./scripted-model";

const USAGE = "usage: scripted-model --script <file.json> [--port <n>] [--host <address>]";

export const main = async (argv: string[]): Promise<number> => {
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const m = /^--(script|port|host)(?:=(.*))?$/.exec(arg);
    const value = m?.[2] ?? argv[i + 1];
    if (!m || value === undefined) {
      process.stderr.write(
        `scripted-model: unexpected argument ${JSON.stringify(arg)}\n${USAGE}\n`,
      );
      return 1;
    }
    if (m[2] === undefined) i++;
    options[m[1]!] = value;
  }
  if (!options.script) {
    process.stderr.write(`scripted-model: --script is required\n${USAGE}\n`);
    return 1;
  }
  const port = options.port === undefined ? 0 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(
      `scripted-model: --port must be a port number, not ${JSON.stringify(options.port)}\n`,
    );
    return 1;
  }
  let model;
  try {
    model = await startScriptedModel({
      script: options.script,
      port,
      ...(options.host ? { host: options.host } : {}),
      log: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (error) {
    const text = isAppError(error) ? `[${error.code}] ${error.message}` : String(error);
    process.stderr.write(`scripted-model: ${text}\n`);
    return 1;
  }
  process.stdout.write(`${model.url}\n`);
  const signal = await new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  await model.close();
  process.stderr.write(
    `scripted-model: ${signal}: ${model.requests.length} requests, ${model.turnsPlayed} turns played, ` +
      `${model.turnsLeft} left, ${model.failures.length} failures\n`,
  );
  for (const f of model.failures) process.stderr.write(`  #${f.request} ${f.kind}: ${f.message}\n`);
  return model.failures.length ? 1 : 0;
};
