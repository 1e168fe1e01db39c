/**
 * `switchyard login <url>`: asks for an API token (typed without echo at a terminal, or the
 * first line of stdin in a script), checks it against the server, and stores both for the
 * server commands, readable by the user alone.
 */
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { AppError } from "@switchyard/core/errors";
import { createSwitchyardClient } from "@switchyard/client";
import { call, normalizedUrl, storeCredentials } from "./server-access";
import { parseServerArgs } from "./server-args";
import type { Io } from "./validate-command";

export const LOGIN_USAGE = `usage: switchyard login <url> [--token-stdin] [--json]
Asks for an API token of the server at <url> (make one under Settings → API tokens), checks
it, and stores the URL and token in $XDG_CONFIG_HOME/switchyard/credentials.json (else
~/.config/switchyard), readable by you alone. At a terminal the token is typed without echo;
otherwise (or with --token-stdin) it is the first line of stdin. SWITCHYARD_URL and
SWITCHYARD_TOKEN, when set, win over the stored login.`;

/** The first line of a piped stdin. */
const firstLine = async (input: NodeJS.ReadableStream) => {
  let text = "";
  for await (const chunk of input) {
    text += String(chunk);
    if (text.includes("\n")) break;
  }
  return text.split("\n")[0]!.trim();
};

/** A line typed at the terminal without echo. */
const typedSecret = (input: NodeJS.ReadStream, output: NodeJS.WriteStream, prompt: string) =>
  new Promise<string>((resolve, reject) => {
    output.write(prompt);
    const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
    const rl = createInterface({ input, output: muted, terminal: true });
    rl.on("SIGINT", () => {
      rl.close();
      output.write("\n");
      reject(new AppError("USER.INPUT.CANCELLED", "login cancelled"));
    });
    rl.question("", (line) => {
      rl.close();
      output.write("\n");
      resolve(line.trim());
    });
  });

export const runLogin = async (
  argv: string[],
  io: Io,
  env: NodeJS.ProcessEnv,
  stdin: NodeJS.ReadStream = process.stdin,
): Promise<number> => {
  const args = parseServerArgs(argv, { "token-stdin": "boolean", json: "boolean" }, LOGIN_USAGE);
  const [target] = args.positionals;
  if (!target || args.positionals.length > 1)
    throw new AppError("BAD_REQUEST", LOGIN_USAGE, { location: { path: "url" } });
  const url = normalizedUrl(target);
  const token =
    stdin.isTTY && !args.flags["token-stdin"]
      ? await typedSecret(stdin, process.stderr, `API token for ${url}: `)
      : await firstLine(stdin);
  if (!token)
    throw new AppError(
      "BAD_REQUEST",
      "no token given: make one under Settings → API tokens and paste it",
      {
        location: { path: "token" },
      },
    );
  const access = { url, token };
  // Any member's token may read its team: the check that the server takes it.
  const team = await call(access, createSwitchyardClient(access).GET("/team"));
  const file = await storeCredentials(env, access);
  if (args.flags.json) io.out(`${JSON.stringify({ url, team: team.name, credentials: file })}\n`);
  else io.out(`Logged in to ${url} (team ${team.name}). The token is stored in ${file}.\n`);
  return 0;
};
