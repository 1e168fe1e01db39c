/**
 * Schedule and webhook triggers of a workflow, for the dashboard's procedures and the REST
 * API alike. Everyone in the team may list them; a member or above who may start runs in
 * the workflow's lane may create them. A trigger runs as one member (its creator at first):
 * only that member or an admin may change, pause, resume, rotate or delete it, since a run
 * it starts acts with that member's role and own connector accounts. An admin's change or
 * rotation of someone else's trigger makes it run as the admin from then on (pausing,
 * resuming and deleting change nothing of what a run does, so they leave it bound). Every
 * change is audited with the fields it changed, never a value or the secret. A webhook's
 * signing secret is sealed here and shown once; a schedule's job scheduler is set in the
 * same transaction as the row, so a queue that refuses leaves nothing saved.
 */
import type { z } from "zod";
import type { Redis } from "ioredis";
import { newCredentialId, type Keyring } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import { mayStart, roleAtLeast } from "@switchyard/core/policy";
import {
  checkInputMap,
  checkSchedule,
  newSigningSecret,
  nextFireTimes,
  sealSigningSecret,
} from "@switchyard/core/triggers";
import {
  createTrigger,
  deleteTrigger,
  getTrigger,
  getWorkflow,
  laneRules,
  listTriggers,
  recordAudit,
  replaceTriggerSecret,
  triggerRunners,
  updateTrigger,
  type Db,
  type Role,
} from "@switchyard/db";
import type { createTriggerInput, updateTriggerBody } from "../contract/triggers.types";
import { removeTriggerSchedule, syncTriggerSchedule } from "./trigger-schedules";

export type TriggerActor = { teamId: string; userId: string; role: Role };
export type TriggerServices = {
  db: Db;
  keyring: () => Keyring;
  redis: () => Redis;
  prefix: string;
};

type StoredTrigger = Omit<
  NonNullable<Awaited<ReturnType<typeof getTrigger>>>,
  "teamId" | "credentialId"
>;
type Runners = Awaited<ReturnType<typeof triggerRunners>>;

const nextFiresOf = (t: StoredTrigger) => {
  if (t.kind !== "schedule" || !t.cron || t.paused) return [];
  try {
    return nextFireTimes(t.cron, t.timezone ?? "UTC", 3);
  } catch {
    return [];
  }
};

/** Whether `actor` may change `t`, given whether they may create triggers in its lane. */
const mayManage = (actor: TriggerActor, t: { runAsUserId: string | null }, mayCreate: boolean) =>
  mayCreate && (t.runAsUserId === actor.userId || roleAtLeast(actor.role, "admin"));

const view = (t: StoredTrigger, runners: Runners, canManage: boolean) => {
  const runner = t.runAsUserId ? runners.get(t.runAsUserId) : undefined;
  return {
    id: t.id,
    workflowId: t.workflowId,
    kind: t.kind,
    name: t.name,
    cron: t.cron,
    timezone: t.timezone,
    inputs: (t.inputs ?? {}) as Record<string, unknown>,
    inputMap: (t.inputMap ?? {}) as Record<string, string>,
    paused: t.paused,
    lastFiredAt: t.lastFiredAt,
    lastRunId: t.lastRunId,
    lastError: t.lastError,
    createdAt: t.createdAt,
    nextFires: nextFiresOf(t),
    webhookPath: t.kind === "webhook" ? `/api/hooks/${t.id}` : null,
    runsAs: runner ? { id: runner.id, name: runner.name } : null,
    canManage,
  };
};

/** The answer for one trigger the actor may change (they just did). */
const managedView = async (db: Db, t: StoredTrigger) =>
  view(t, await triggerRunners(db, [t.runAsUserId]), true);

/** The refusal for creating triggers of a workflow in `lane`, or undefined. */
const createRefusal = async (db: Db, actor: TriggerActor, lane: string) => {
  if (!roleAtLeast(actor.role, "member"))
    return new AppError("FORBIDDEN", "this needs the member role");
  return mayStart(await laneRules(db, actor.teamId), actor.role, lane);
};

const workflowOf = async (db: Db, actor: TriggerActor, workflowId: string) => {
  const workflow = await getWorkflow(db, actor.teamId, workflowId);
  if (!workflow) throw new AppError("NOT_FOUND", "workflow not found");
  return workflow;
};

/** The trigger, after checking the actor may change it: in its lane, and its own or an admin. */
const manageable = async (db: Db, actor: TriggerActor, triggerId: string) => {
  const trigger = await getTrigger(db, actor.teamId, triggerId);
  if (!trigger) throw new AppError("NOT_FOUND", "trigger not found");
  const denied = await createRefusal(
    db,
    actor,
    (await workflowOf(db, actor, trigger.workflowId)).lane,
  );
  if (denied) throw denied;
  if (!mayManage(actor, trigger, true)) {
    throw new AppError(
      "FORBIDDEN",
      "only the member this trigger runs as, or an admin, may change it; create a trigger of your own instead",
    );
  }
  return trigger;
};

/** An admin changing someone else's trigger takes it over: the re-binding, as stored and as audited. */
const rebinding = (actor: TriggerActor, trigger: { runAsUserId: string | null }) =>
  trigger.runAsUserId === actor.userId
    ? undefined
    : { from: trigger.runAsUserId, to: actor.userId };

const audit = (
  actor: TriggerActor,
  action: string,
  triggerId: string,
  metadata?: Record<string, unknown>,
) => ({
  teamId: actor.teamId,
  actorUserId: actor.userId,
  action,
  targetType: "trigger",
  targetId: triggerId,
  metadata: metadata as Parameters<typeof recordAudit>[1]["metadata"],
});

const checkFields = (
  kind: "schedule" | "webhook",
  fields: { cron?: string; timezone?: string; inputMap?: Record<string, string> },
) => {
  if (kind === "schedule") {
    if (fields.cron === undefined)
      throw new AppError("USER.TRIGGER.INVALID_SCHEDULE", "a schedule needs a cron expression", {
        location: { path: "cron" },
      });
    return {
      cron: checkSchedule(fields.cron, fields.timezone ?? "UTC"),
      timezone: fields.timezone ?? "UTC",
    };
  }
  if (fields.inputMap) checkInputMap(fields.inputMap);
  return {};
};

/** The fields whose stored value differs between two versions of a trigger, in a fixed order. */
const changedFields = (before: StoredTrigger, after: StoredTrigger) =>
  (["name", "cron", "timezone", "inputs", "inputMap"] as const).filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );

export const listWorkflowTriggers = async (db: Db, actor: TriggerActor, workflowId: string) => {
  const workflow = await workflowOf(db, actor, workflowId);
  const triggers = await listTriggers(db, actor.teamId, workflow.id);
  const canCreate = !(await createRefusal(db, actor, workflow.lane));
  const runners = await triggerRunners(
    db,
    triggers.map((t) => t.runAsUserId),
  );
  return {
    canCreate,
    triggers: triggers.map((t) => view(t, runners, mayManage(actor, t, canCreate))),
  };
};

export const readTrigger = async (db: Db, actor: TriggerActor, triggerId: string) => {
  const trigger = await getTrigger(db, actor.teamId, triggerId);
  if (!trigger) throw new AppError("NOT_FOUND", "trigger not found");
  const canCreate = !(await createRefusal(
    db,
    actor,
    (await workflowOf(db, actor, trigger.workflowId)).lane,
  ));
  return view(
    trigger,
    await triggerRunners(db, [trigger.runAsUserId]),
    mayManage(actor, trigger, canCreate),
  );
};

export const createWorkflowTrigger = async (
  services: TriggerServices,
  actor: TriggerActor,
  input: z.infer<typeof createTriggerInput>,
) => {
  const { db } = services;
  const workflow = await workflowOf(db, actor, input.workflowId);
  const denied = await createRefusal(db, actor, workflow.lane);
  if (denied) throw denied;
  const schedule = checkFields(input.kind, input);
  if (input.kind === "webhook" && (input.cron !== undefined || input.timezone !== undefined)) {
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      "a webhook trigger has no cron or time zone",
      { location: { path: "cron" } },
    );
  }
  const id = `trg_${newCredentialId().slice(5)}`;
  const secret = input.kind === "webhook" ? newSigningSecret() : null;
  const credentialId = newCredentialId();
  const sealed = secret
    ? {
        credentialId,
        envelope: sealSigningSecret(
          services.keyring(),
          { teamId: actor.teamId, credentialId, holder: { kind: "trigger", id } },
          secret,
        ),
      }
    : undefined;
  const created = await db.$transaction(async (tx) => {
    const row = await createTrigger(tx, {
      id,
      teamId: actor.teamId,
      workflowId: workflow.id,
      kind: input.kind,
      name: input.name,
      ...schedule,
      inputs: input.inputs,
      inputMap: input.kind === "webhook" ? input.inputMap : {},
      paused: input.paused,
      runAsUserId: actor.userId,
      sealed,
    });
    await recordAudit(
      tx,
      audit(actor, "trigger.create", id, { kind: input.kind, workflow: workflow.name }),
    );
    await syncTriggerSchedule(services.redis(), services.prefix, { ...row, teamId: actor.teamId });
    return row;
  });
  return { trigger: await managedView(db, created), secret };
};

export const updateWorkflowTrigger = async (
  services: TriggerServices,
  actor: TriggerActor,
  triggerId: string,
  input: z.infer<typeof updateTriggerBody>,
) => {
  const { db } = services;
  const existing = await manageable(db, actor, triggerId);
  const schedule =
    existing.kind === "schedule"
      ? input.cron !== undefined || input.timezone !== undefined
        ? checkFields("schedule", {
            cron: input.cron ?? existing.cron ?? undefined,
            timezone: input.timezone ?? existing.timezone ?? undefined,
          })
        : {}
      : checkFields("webhook", input);
  const runsAs = rebinding(actor, existing);
  const updated = await db.$transaction(async (tx) => {
    const row = await updateTrigger(tx, actor.teamId, triggerId, {
      name: input.name,
      ...schedule,
      inputs: input.inputs,
      inputMap: existing.kind === "webhook" ? input.inputMap : undefined,
      runAsUserId: runsAs?.to,
    });
    if (!row) throw new AppError("NOT_FOUND", "trigger not found");
    const fields = changedFields(existing, row);
    if (fields.length > 0 || runsAs)
      await recordAudit(
        tx,
        audit(actor, "trigger.update", triggerId, { fields, ...(runsAs ? { runsAs } : {}) }),
      );
    await syncTriggerSchedule(services.redis(), services.prefix, row);
    return row;
  });
  return managedView(db, updated);
};

export const setTriggerPaused = async (
  services: TriggerServices,
  actor: TriggerActor,
  triggerId: string,
  paused: boolean,
) => {
  const { db } = services;
  await manageable(db, actor, triggerId);
  const updated = await db.$transaction(async (tx) => {
    const row = await updateTrigger(tx, actor.teamId, triggerId, { paused });
    if (!row) throw new AppError("NOT_FOUND", "trigger not found");
    await recordAudit(tx, audit(actor, paused ? "trigger.pause" : "trigger.resume", triggerId));
    await syncTriggerSchedule(services.redis(), services.prefix, row);
    return row;
  });
  return managedView(db, updated);
};

export const rotateTriggerSecret = async (
  services: TriggerServices,
  actor: TriggerActor,
  triggerId: string,
) => {
  const { db } = services;
  const existing = await manageable(db, actor, triggerId);
  if (existing.kind !== "webhook")
    throw new AppError("CONFLICT", "only a webhook trigger has a signing secret");
  const secret = newSigningSecret();
  const credentialId = newCredentialId();
  const envelope = sealSigningSecret(
    services.keyring(),
    { teamId: actor.teamId, credentialId, holder: { kind: "trigger", id: triggerId } },
    secret,
  );
  const runsAs = rebinding(actor, existing);
  await db.$transaction(async (tx) => {
    if (
      !(await replaceTriggerSecret(
        tx,
        actor.teamId,
        triggerId,
        { credentialId, envelope },
        runsAs?.to,
      ))
    )
      throw new AppError("NOT_FOUND", "trigger not found");
    await recordAudit(
      tx,
      audit(actor, "trigger.rotate_secret", triggerId, runsAs ? { runsAs } : undefined),
    );
  });
  return { id: triggerId, secret };
};

export const deleteWorkflowTrigger = async (
  services: TriggerServices,
  actor: TriggerActor,
  triggerId: string,
) => {
  const { db } = services;
  const existing = await manageable(db, actor, triggerId);
  await db.$transaction(async (tx) => {
    if (!(await deleteTrigger(tx, actor.teamId, triggerId)))
      throw new AppError("NOT_FOUND", "trigger not found");
    await recordAudit(tx, audit(actor, "trigger.delete", triggerId, { kind: existing.kind }));
    if (existing.kind === "schedule")
      await removeTriggerSchedule(services.redis(), services.prefix, triggerId);
  });
  return { id: triggerId };
};
