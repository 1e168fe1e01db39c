/**
 * A team's schedule and webhook triggers as stored, and a webhook's signing secret as the
 * envelope it was sealed into (a Credential row named after the trigger). Validation,
 * sealing, opening, scheduling and audit entries happen in the callers; every query
 * filters on teamId, except the lookup of an inbound webhook by its id, which is all the
 * caller of /api/hooks/<id> has. A trigger runs as one member (`runAsUserId`): whoever
 * fires it, that member's membership is what a run starts under.
 */
import { AppError } from "@switchyard/core/errors";
import { signingSecretHolder } from "@switchyard/core/triggers";
import type { Db } from "../client";
import type { Prisma, TriggerKind } from "../generated/prisma/client";
import type { PrismaClientOrTransaction } from "../transaction";
import { storableJson, storableText } from "../storable";
import { envelopeOf, sealedColumns } from "./sealed-columns";
import type { SealedValue } from "./variables";

type TriggerFields = {
  name?: string;
  cron?: string | null;
  timezone?: string | null;
  inputs?: Record<string, unknown>;
  inputMap?: Record<string, string>;
  paused?: boolean;
  /** the member its runs start as */
  runAsUserId?: string;
};

const json = (value: Record<string, unknown>) => storableJson(value) as Prisma.InputJsonObject;

const listing = {
  id: true,
  workflowId: true,
  kind: true,
  name: true,
  cron: true,
  timezone: true,
  inputs: true,
  inputMap: true,
  paused: true,
  lastFiredAt: true,
  lastRunId: true,
  lastError: true,
  runAsUserId: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** The workflow's triggers, oldest first, without any secret. */
export const listTriggers = (db: Db, teamId: string, workflowId: string) =>
  db.trigger.findMany({
    where: { teamId, workflowId },
    orderBy: { createdAt: "asc" },
    select: listing,
  });

/** The team's trigger with its credential id, or null. */
export const getTrigger = (db: PrismaClientOrTransaction, teamId: string, triggerId: string) =>
  db.trigger.findFirst({
    where: { id: triggerId, teamId },
    select: { ...listing, teamId: true, credentialId: true },
  });

/** Every schedule of every team, for a worker re-creating their job schedulers at boot. */
export const allSchedules = (db: Db) =>
  db.trigger.findMany({
    where: { kind: "schedule" },
    select: { id: true, teamId: true, cron: true, timezone: true, paused: true },
  });

/** The signing secret's credential name: what holds it, then its own id. */
const credentialName = (triggerId: string, credentialId: string) =>
  `${signingSecretHolder({ kind: "trigger", id: triggerId })}:${credentialId}`;

const storeSecret = async (
  tx: PrismaClientOrTransaction,
  teamId: string,
  triggerId: string,
  sealed: SealedValue,
) => {
  await tx.credential.create({
    data: {
      id: sealed.credentialId,
      teamId,
      name: credentialName(triggerId, sealed.credentialId),
      kind: "secret",
      ...sealedColumns(sealed.envelope),
    },
  });
};

/** Writes a trigger (and a webhook's sealed secret). `id` is chosen by the caller, which sealed the secret for it. */
export const createTrigger = async (
  tx: PrismaClientOrTransaction,
  input: TriggerFields & {
    id: string;
    teamId: string;
    workflowId: string;
    kind: TriggerKind;
    runAsUserId: string;
    sealed?: SealedValue;
  },
) => {
  if (input.sealed) await storeSecret(tx, input.teamId, input.id, input.sealed);
  return tx.trigger.create({
    data: {
      id: input.id,
      teamId: input.teamId,
      workflowId: input.workflowId,
      kind: input.kind,
      name: input.name ?? "",
      cron: input.cron ?? null,
      timezone: input.timezone ?? null,
      inputs: json(input.inputs ?? {}),
      inputMap: json(input.inputMap ?? {}),
      paused: input.paused ?? false,
      credentialId: input.sealed?.credentialId ?? null,
      runAsUserId: input.runAsUserId,
    },
    select: listing,
  });
};

/** Changes a trigger's fields; null when there is no such trigger in the team. */
export const updateTrigger = async (
  tx: PrismaClientOrTransaction,
  teamId: string,
  triggerId: string,
  fields: TriggerFields,
) => {
  const { count } = await tx.trigger.updateMany({
    where: { id: triggerId, teamId },
    data: {
      ...(fields.name !== undefined ? { name: fields.name } : {}),
      ...(fields.cron !== undefined ? { cron: fields.cron } : {}),
      ...(fields.timezone !== undefined ? { timezone: fields.timezone } : {}),
      ...(fields.inputs !== undefined ? { inputs: json(fields.inputs) } : {}),
      ...(fields.inputMap !== undefined ? { inputMap: json(fields.inputMap) } : {}),
      ...(fields.paused !== undefined
        ? { paused: fields.paused, ...(fields.paused ? {} : { lastError: null }) }
        : {}),
      ...(fields.runAsUserId !== undefined ? { runAsUserId: fields.runAsUserId } : {}),
    },
  });
  return count === 0 ? null : getTrigger(tx, teamId, triggerId);
};

/** Puts a new sealed secret in place of the old one, which is deleted; `runAsUserId` re-binds the trigger in the same write. */
export const replaceTriggerSecret = async (
  tx: PrismaClientOrTransaction,
  teamId: string,
  triggerId: string,
  sealed: SealedValue,
  runAsUserId?: string,
) => {
  const existing = await getTrigger(tx, teamId, triggerId);
  if (!existing) return false;
  await storeSecret(tx, teamId, triggerId, sealed);
  await tx.trigger.updateMany({
    where: { id: triggerId, teamId },
    data: { credentialId: sealed.credentialId, ...(runAsUserId ? { runAsUserId } : {}) },
  });
  if (existing.credentialId)
    await tx.credential.deleteMany({ where: { id: existing.credentialId, teamId } });
  return true;
};

/** Removes a trigger and its secret; false when there was none. */
export const deleteTrigger = async (
  tx: PrismaClientOrTransaction,
  teamId: string,
  triggerId: string,
) => {
  const existing = await getTrigger(tx, teamId, triggerId);
  if (!existing) return false;
  await tx.trigger.deleteMany({ where: { id: triggerId, teamId } });
  if (existing.credentialId)
    await tx.credential.deleteMany({ where: { id: existing.credentialId, teamId } });
  return true;
};

/**
 * An inbound webhook's trigger by id alone, with its sealed secret: the one lookup that
 * does not know the team, since the URL is all the sender has.
 */
export const webhookTriggerForDelivery = async (db: Db, triggerId: string) => {
  const trigger = await db.trigger.findUnique({
    where: { id: triggerId },
    select: {
      id: true,
      teamId: true,
      workflowId: true,
      kind: true,
      paused: true,
      inputs: true,
      inputMap: true,
      runAsUserId: true,
      credentialId: true,
    },
  });
  if (!trigger || trigger.kind !== "webhook" || !trigger.credentialId) return null;
  const credential = await db.credential.findFirst({
    where: { id: trigger.credentialId, teamId: trigger.teamId },
  });
  if (!credential) return null;
  return {
    ...trigger,
    sealed: { credentialId: credential.id, envelope: envelopeOf(credential) } satisfies SealedValue,
  };
};

/** The people triggers run as, by id (name and email), for listing them; a user who is gone is absent. */
export const triggerRunners = async (db: PrismaClientOrTransaction, userIds: (string | null)[]) => {
  const ids = [...new Set(userIds.filter((id): id is string => id !== null))];
  const users =
    ids.length > 0
      ? await db.user.findMany({
          where: { id: { in: ids } },
          select: { id: true, name: true, email: true },
        })
      : [];
  return new Map(users.map((u) => [u.id, u]));
};

/**
 * The member a fire starts its run as, with their role now; FORBIDDEN (kept as the fire's
 * error) when they are no longer in the team.
 */
export const triggerRunner = async (
  db: Db,
  trigger: { teamId: string; runAsUserId: string | null },
) => {
  const membership = trigger.runAsUserId
    ? await db.membership.findUnique({
        where: { teamId_userId: { teamId: trigger.teamId, userId: trigger.runAsUserId } },
      })
    : null;
  if (!membership) {
    throw new AppError(
      "FORBIDDEN",
      "the member this trigger runs as is no longer in the team; an admin's change makes it run as that admin, or create it again",
    );
  }
  return { userId: membership.userId, role: membership.role };
};

/** What a fire did: the run it started, or why it could not. */
export const recordTriggerFire = (
  db: Db,
  teamId: string,
  triggerId: string,
  result: { runId: string } | { error: string },
) =>
  db.trigger.updateMany({
    where: { id: triggerId, teamId },
    data:
      "runId" in result
        ? { lastFiredAt: new Date(), lastRunId: result.runId, lastError: null }
        : { lastFiredAt: new Date(), lastError: storableText(result.error) ?? "failed" },
  });

/** How many runs a trigger started (tests and the panel). */
export const countTriggerRuns = (db: Db, teamId: string, triggerId: string) =>
  db.run.count({ where: { teamId, triggerId } });

/** The start times of the runs a trigger started, oldest first. */
export const triggerRunTimes = async (db: Db, teamId: string, triggerId: string) =>
  await db.run.findMany({
    where: { teamId, triggerId },
    orderBy: { createdAt: "asc" },
    select: { id: true, createdAt: true },
  });
