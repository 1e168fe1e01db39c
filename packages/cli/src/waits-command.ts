/**
 * `switchyard waits list|answer` against a server: the team's waits for a person's answer
 * (a held tool call, a triggered run's inputs, a conversation's next message), and an answer
 * given as the token's member.
 */
import { AppError } from "@switchyard/core/errors";
import { call, connect } from "./server-access";
import { inputPairs, parseServerArgs, subcommands } from "./server-args";
import type { Io } from "./validate-command";

export const WAITS_USAGE = `usage: switchyard waits <list|answer> [options]
  list [--all] [--run <run-id>] [--json]
                  the open waits you may answer (--all: every wait of the team)
  answer <wait-id> (--approve | --deny [--message <text>] | --input key=value... | --message <text>) [--json]
                  approve or deny a held tool call (a denial's message reaches the agent),
                  fill in a run's inputs, or send a conversation's next message`;

const list = async (argv: string[], io: Io, env: NodeJS.ProcessEnv) => {
  const { flags } = parseServerArgs(
    argv,
    { all: "boolean", run: "string", json: "boolean" },
    WAITS_USAGE,
  );
  const { access, client } = await connect(env);
  const page = await call(
    access,
    client.GET("/waits", {
      params: {
        query: {
          ...(flags.all ? {} : { mine: "true" }),
          ...(flags.run ? { runId: flags.run } : {}),
        },
      },
    }),
  );
  if (flags.json) io.out(`${JSON.stringify(page.waits)}\n`);
  else {
    if (page.waits.length === 0)
      io.out(flags.all ? "No waits.\n" : "Nothing waits for your answer.\n");
    for (const wait of page.waits)
      io.out(
        `${wait.id}  ${wait.kind.padEnd(9)}  ${wait.status.padEnd(9)}  ${wait.run?.workflow ?? "-"}  ${wait.question}\n`,
      );
  }
  return 0;
};

const answer = async (argv: string[], io: Io, env: NodeJS.ProcessEnv) => {
  const { flags, positionals } = parseServerArgs(
    argv,
    { approve: "boolean", deny: "boolean", message: "string", input: "strings", json: "boolean" },
    WAITS_USAGE,
  );
  const [id] = positionals;
  if (!id || positionals.length > 1)
    throw new AppError("USER.INPUT.VALIDATION_FAILED", WAITS_USAGE);
  const kinds = [flags.approve, flags.deny, flags.input.length > 0].filter(Boolean).length;
  if (
    kinds > 1 ||
    (kinds === 0 && flags.message === undefined) ||
    (flags.approve && flags.message !== undefined)
  )
    throw new AppError("USER.INPUT.VALIDATION_FAILED", `give one answer\n${WAITS_USAGE}`);
  const body = flags.approve
    ? { decision: "approve" as const }
    : flags.deny
      ? {
          decision: "deny" as const,
          ...(flags.message === undefined ? {} : { message: flags.message }),
        }
      : flags.input.length > 0
        ? { inputs: inputPairs(flags.input) }
        : { message: flags.message! };
  const { access, client } = await connect(env);
  const answered = await call(
    access,
    client.POST("/waits/{id}/answer", { params: { path: { id } }, body }),
  );
  if (flags.json) io.out(`${JSON.stringify(answered)}\n`);
  else io.out(`${id} answered${answered.resumed ? "; the run goes on" : ""}\n`);
  return 0;
};

export const runWaits = subcommands({ list, answer }, WAITS_USAGE);
