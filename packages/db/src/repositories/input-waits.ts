/**
 * Interactive inputs on a server (docs/workflows.md, "Interactive inputs"). Where AWF prompts
 * in a terminal, a run a schedule or a webhook starts without a required input is written
 * `waiting`, parked on an `input` wait that carries the declaration of each input it was not
 * given, in one transaction with the wait's audit entry: no job runs it until the answer. The
 * answer is checked as a start's inputs are and merged into the run's inputs in the
 * transaction that closes the wait; expiry leaves them missing, and the worker then fails the
 * run naming them, as a start without them is refused.
 */
import { AppError } from "@switchyard/core/errors";
import { DEFAULT_INPUT_WAIT_EXPIRY_MS } from "@switchyard/core/governance";
import { checkStartInputs, type InputDefinition } from "@switchyard/core/workflow";
import type { Prisma } from "../generated/prisma/client";
import type { Db } from "../client";
import { newRowId } from "../row-id";
import { storableJson } from "../storable";
import { recordAudit } from "./audit-log";
import { createRun, type CreateRunInput } from "./runs";

/** What an `input` wait shows: the inputs the run was not given, as declared, and which are required. */
type InputWaitDetail = { inputs: InputDefinition[]; missing: string[] };

/** The answer an `input` wait keeps: the names given, never their values (those are the run's inputs). */
export type InputsAnswered = { decision: "inputs"; inputs: string[] };

/**
 * Writes the run parked on an `input` wait asking for `asked` (the inputs it was not given;
 * `missing`, the required ones among them), with the wait's audit entry (`wait.opened`).
 */
export const createRunWaitingForInputs = (
  db: Db,
  run: CreateRunInput,
  asked: InputDefinition[],
  missing: string[],
  now = new Date(),
) =>
  db.$transaction(async (tx) => {
    const created = await createRun(tx, { ...run, status: "waiting" });
    const waitId = newRowId();
    const question = `Fill in ${missing.join(", ")} to start this run`;
    const detail: InputWaitDetail = { inputs: asked, missing };
    await tx.wait.create({
      data: {
        id: waitId,
        teamId: run.teamId,
        runId: created.id,
        kind: "input",
        question,
        detail: storableJson(detail) as Prisma.InputJsonObject,
        lane: run.lane,
        expiresAt: new Date(now.getTime() + DEFAULT_INPUT_WAIT_EXPIRY_MS),
        onExpiry: "fail",
        parked: true,
        // The inputs a run starts with as its member: theirs to give, or an admin's (waitAnswerRefusal).
        minRole: "admin",
      },
    });
    await recordAudit(tx, {
      teamId: run.teamId,
      actorUserId: null,
      action: "wait.opened",
      targetType: "wait",
      targetId: waitId,
      metadata: { runId: created.id, kind: "input", question },
    });
    return { run: created, waitId };
  });

const askedOf = (detail: unknown): InputDefinition[] =>
  (detail as Partial<InputWaitDetail> | null)?.inputs ?? [];

/**
 * Checks an `input` wait's answer against the declarations it asked for (each required one
 * given, types, enum, pattern, min and max; a problem names its `inputs.<name>` field) and
 * merges it into the waiting run's inputs, inside the transaction that answers the wait.
 */
export const applyInputsAnswer = async (
  tx: Prisma.TransactionClient,
  wait: { teamId: string; runId: string; detail: unknown },
  given: Record<string, unknown>,
): Promise<InputsAnswered> => {
  const asked = askedOf(wait.detail);
  for (const name of Object.keys(given))
    if (!asked.some((d) => d.name === name))
      throw new AppError(
        "USER.INPUT.VALIDATION_FAILED",
        `inputs.${name}: is not asked for by this wait (it asks for ${asked.map((d) => d.name).join(", ")})`,
        { location: { path: `inputs.${name}` } },
      );
  const refused = await checkStartInputs(asked, given);
  if (refused) throw refused;
  const run = await tx.run.findFirst({
    where: { id: wait.runId, teamId: wait.teamId, status: "waiting" },
    select: { inputs: true },
  });
  if (!run) throw new AppError("CONFLICT", "the run no longer waits for its inputs");
  const inputs = { ...(run.inputs as Record<string, unknown>), ...given };
  await tx.run.updateMany({
    where: { id: wait.runId, teamId: wait.teamId, status: "waiting" },
    data: { inputs: storableJson(inputs) as Prisma.InputJsonObject },
  });
  return { decision: "inputs", inputs: Object.keys(given) };
};
