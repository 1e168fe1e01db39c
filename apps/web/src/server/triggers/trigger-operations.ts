/**
 * Schedule and webhook triggers of a workflow, for the dashboard's procedures and the REST
 * API alike. Everyone in the team may list them; a member or above who may start runs in
 * the workflow's lane may create, change, pause, resume, rotate and delete them. A
 * webhook's signing secret is sealed here and shown once; a schedule's job scheduler is
 * set in the same transaction as the row, so a queue that refuses leaves nothing saved.
 */
import type { z } from "zod";
import type { Redis } from "ioredis";
import { newCredentialId, type Keyring } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import { mayStart } from "@switchyard/core/policy";
import { checkInputMap, checkSchedule, newSigningSecret, nextFireTimes, sealSigningSecret } from "@switchyard/core/triggers";
import {
  createTrigger,
  deleteTrigger,
  getTrigger,
  getWorkflow,
  laneRules,
  listTriggers,
  recordAudit,
  replaceTriggerSecret,
  updateTrigger,
  type Db,
  type Role,
} from "@switchyard/db";
import { roleAtLeast } from "@switchyard/core/policy";
import type { createTriggerInput, updateTriggerBody } from "../contract/triggers.types";
import { removeTriggerSchedule, syncTriggerSchedule } from "./trigger-schedules";

export type TriggerActor = { teamId: string; userId: string; role: Role };
export type TriggerServices = { db: Db; keyring: () => Keyring; redis: () => Redis; prefix: string };

type StoredTrigger = NonNullable<Awaited<ReturnType<typeof getTrigger>>>;

const view = (t: Omit<StoredTrigger, "teamId" | "credentialId" | "createdById"> & { createdById?: string | null }) => {
  let nextFires: Date[] = [];
  if (t.kind === "schedule" && t.cron && !t.paused) {
    try {
      nextFires = nextFireTimes(t.cron, t.timezone ?? "UTC", 3);
    } catch {
      nextFires = [];
    }
  }
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
    nextFires,
    webhookPath: t.kind === "webhook" ? `/api/hooks/${t.id}` : null,
  };
};

/** The refusal for managing triggers of `workflow`, or undefined. */
const manageRefusal = async (db: Db, actor: TriggerActor, lane: string) => {
  if (!roleAtLeast(actor.role, "member")) return new AppError("FORBIDDEN", "this needs the member role");
  return mayStart(await laneRules(db, actor.teamId), actor.role, lane);
};

const workflowOf = async (db: Db, actor: TriggerActor, workflowId: string) => {
  const workflow = await getWorkflow(db, actor.teamId, workflowId);
  if (!workflow) throw new AppError("NOT_FOUND", "workflow not found");
  return workflow;
};

/** The trigger, after checking the actor may manage it. */
const manageable = async (db: Db, actor: TriggerActor, triggerId: string) => {
  const trigger = await getTrigger(db, actor.teamId, triggerId);
  if (!trigger) throw new AppError("NOT_FOUND", "trigger not found");
  const denied = await manageRefusal(db, actor, (await workflowOf(db, actor, trigger.workflowId)).lane);
  if (denied) throw denied;
  return trigger;
};

const audit = (actor: TriggerActor, action: string, triggerId: string, metadata?: Record<string, string>) => ({
  teamId: actor.teamId,
  actorUserId: actor.userId,
  action,
  targetType: "trigger",
  targetId: triggerId,
  metadata,
});

const checkFields = (kind: "schedule" | "webhook", fields: { cron?: string; timezone?: string; inputMap?: Record<string, string> }) => {
  if (kind === "schedule") {
    if (fields.cron === undefined) throw new AppError("USER.TRIGGER.INVALID_SCHEDULE", "a schedule needs a cron expression", { location: { path: "cron" } });
    return { cron: checkSchedule(fields.cron, fields.timezone ?? "UTC"), timezone: fields.timezone ?? "UTC" };
  }
  if (fields.inputMap) checkInputMap(fields.inputMap);
  return {};
};

export const listWorkflowTriggers = async (db: Db, actor: TriggerActor, workflowId: string) => {
  const workflow = await workflowOf(db, actor, workflowId);
  const triggers = await listTriggers(db, actor.teamId, workflow.id);
  return { canManage: !(await manageRefusal(db, actor, workflow.lane)), triggers: triggers.map(view) };
};

export const readTrigger = async (db: Db, actor: TriggerActor, triggerId: string) => {
  const trigger = await getTrigger(db, actor.teamId, triggerId);
  if (!trigger) throw new AppError("NOT_FOUND", "trigger not found");
  return view(trigger);
};

export const createWorkflowTrigger = async (services: TriggerServices, actor: TriggerActor, input: z.infer<typeof createTriggerInput>) => {
  const { db } = services;
  const workflow = await workflowOf(db, actor, input.workflowId);
  const denied = await manageRefusal(db, actor, workflow.lane);
  if (denied) throw denied;
  const schedule = checkFields(input.kind, input);
  if (input.kind === "webhook" && (input.cron !== undefined || input.timezone !== undefined)) {
    throw new AppError("USER.INPUT.VALIDATION_FAILED", "a webhook trigger has no cron or time zone", { location: { path: "cron" } });
  }
  const id = `trg_${newCredentialId().slice(5)}`;
  const secret = input.kind === "webhook" ? newSigningSecret() : null;
  const credentialId = newCredentialId();
  const sealed = secret
    ? { credentialId, envelope: sealSigningSecret(services.keyring(), { teamId: actor.teamId, credentialId, holder: { kind: "trigger", id } }, secret) }
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
      createdById: actor.userId,
      sealed,
    });
    await recordAudit(tx, audit(actor, "trigger.create", id, { kind: input.kind, workflow: workflow.name }));
    await syncTriggerSchedule(services.redis(), services.prefix, { ...row, teamId: actor.teamId });
    return row;
  });
  return { trigger: view(created), secret };
};

export const updateWorkflowTrigger = async (services: TriggerServices, actor: TriggerActor, triggerId: string, input: z.infer<typeof updateTriggerBody>) => {
  const { db } = services;
  const existing = await manageable(db, actor, triggerId);
  const schedule =
    existing.kind === "schedule"
      ? input.cron !== undefined || input.timezone !== undefined
        ? checkFields("schedule", { cron: input.cron ?? existing.cron ?? undefined, timezone: input.timezone ?? existing.timezone ?? undefined })
        : {}
      : checkFields("webhook", input);
  const updated = await db.$transaction(async (tx) => {
    const row = await updateTrigger(tx, actor.teamId, triggerId, {
      name: input.name,
      ...schedule,
      inputs: input.inputs,
      inputMap: existing.kind === "webhook" ? input.inputMap : undefined,
    });
    if (!row) throw new AppError("NOT_FOUND", "trigger not found");
    await syncTriggerSchedule(services.redis(), services.prefix, row);
    return row;
  });
  return view(updated);
};

export const setTriggerPaused = async (services: TriggerServices, actor: TriggerActor, triggerId: string, paused: boolean) => {
  const { db } = services;
  await manageable(db, actor, triggerId);
  const updated = await db.$transaction(async (tx) => {
    const row = await updateTrigger(tx, actor.teamId, triggerId, { paused });
    if (!row) throw new AppError("NOT_FOUND", "trigger not found");
    await recordAudit(tx, audit(actor, paused ? "trigger.pause" : "trigger.resume", triggerId));
    await syncTriggerSchedule(services.redis(), services.prefix, row);
    return row;
  });
  return view(updated);
};

export const rotateTriggerSecret = async (services: TriggerServices, actor: TriggerActor, triggerId: string) => {
  const { db } = services;
  const existing = await manageable(db, actor, triggerId);
  if (existing.kind !== "webhook") throw new AppError("CONFLICT", "only a webhook trigger has a signing secret");
  const secret = newSigningSecret();
  const credentialId = newCredentialId();
  const envelope = sealSigningSecret(services.keyring(), { teamId: actor.teamId, credentialId, holder: { kind: "trigger", id: triggerId } }, secret);
  await db.$transaction(async (tx) => {
    if (!(await replaceTriggerSecret(tx, actor.teamId, triggerId, { credentialId, envelope }))) throw new AppError("NOT_FOUND", "trigger not found");
    await recordAudit(tx, audit(actor, "trigger.rotate_secret", triggerId));
  });
  return { id: triggerId, secret };
};

export const deleteWorkflowTrigger = async (services: TriggerServices, actor: TriggerActor, triggerId: string) => {
  const { db } = services;
  const existing = await manageable(db, actor, triggerId);
  await db.$transaction(async (tx) => {
    if (!(await deleteTrigger(tx, actor.teamId, triggerId))) throw new AppError("NOT_FOUND", "trigger not found");
    await recordAudit(tx, audit(actor, "trigger.delete", triggerId, { kind: existing.kind }));
    if (existing.kind === "schedule") await removeTriggerSchedule(services.redis(), services.prefix, triggerId);
  });
  return { id: triggerId };
};
