/**
 * An inbound webhook (POST /api/hooks/<trigger id>): the trigger is found by its id alone,
 * the request's X-Switchyard-Signature is checked against the raw body with the trigger's
 * signing secret (opened here), and only then is anything else said about it: paused is a
 * conflict, and a valid body starts a run as the member the trigger runs as (its creator,
 * or the admin who last changed it), whose role is checked now, with the body's mapped values over the trigger's default inputs
 * (a run without a required input waits for a person to fill it in).
 * An unknown id is 404 and a bad signature 401, whatever else is true of the trigger. A
 * signed delivery accepted once is refused when sent again (409 USER.WEBHOOK.REPLAYED, see
 * webhook-deliveries.ts); one that started no run may be sent again. A sender's retry, signed
 * anew, with the Idempotency-Key of the first delivery gets that delivery's run back (one
 * that waits for its inputs too) and starts nothing; the key is the trigger's own.
 */
import type { Redis } from "ioredis";
import type { Keyring } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import { mapInputs, openSigningSecret, verifySignature } from "@switchyard/core/triggers";
import {
  recordTriggerFire,
  triggerRunner,
  webhookTriggerForDelivery,
  type Db,
  type StartRunDeps,
} from "@switchyard/db";
import { idempotencyKeyHeader } from "../http/idempotency-key-header";
import { notifyWaitOpened } from "../notifications/notification-queue";
import { startRun } from "../runs/start-run";
import { claimDelivery } from "./webhook-deliveries";

export type ReceiveWebhookDeps = {
  db: Db;
  keyring: Keyring;
  queue: StartRunDeps["queue"];
  redis: Redis;
  prefix: string;
};

export const receiveWebhook = async (
  deps: ReceiveWebhookDeps,
  input: {
    triggerId: string;
    signature: string | null;
    rawBody: string;
    /** the Idempotency-Key header as sent, checked once the signature is */
    idempotencyKey?: string | null;
  },
) => {
  const { db } = deps;
  const trigger = await webhookTriggerForDelivery(db, input.triggerId);
  if (!trigger) throw new AppError("NOT_FOUND", "no such webhook");
  const secret = openSigningSecret(
    deps.keyring,
    {
      teamId: trigger.teamId,
      credentialId: trigger.sealed.credentialId,
      holder: { kind: "trigger", id: trigger.id },
    },
    trigger.sealed.envelope,
  );
  const delivery = verifySignature({ secret, header: input.signature, body: input.rawBody });
  if (trigger.paused)
    throw new AppError(
      "USER.TRIGGER.PAUSED",
      "this webhook trigger is paused; resume it in the dashboard",
    );
  const idempotencyKey = idempotencyKeyHeader(input.idempotencyKey);
  const claim = await claimDelivery(deps.redis, deps.prefix, trigger.id, delivery);
  try {
    return await fire(deps, trigger, { rawBody: input.rawBody, idempotencyKey }, claim.keep);
  } finally {
    await claim.settle();
  }
};

/** Starts the trigger's run with the body's mapped inputs (`started` once it exists), and keeps on the trigger what the fire did. */
const fire = async (
  deps: ReceiveWebhookDeps,
  trigger: NonNullable<Awaited<ReturnType<typeof webhookTriggerForDelivery>>>,
  { rawBody, idempotencyKey }: { rawBody: string; idempotencyKey?: string },
  started: () => void,
) => {
  const { db } = deps;
  let body: unknown;
  try {
    body = rawBody.trim() === "" ? {} : JSON.parse(rawBody);
  } catch {
    throw new AppError("BAD_REQUEST", "the body is not valid JSON");
  }
  try {
    const runner = await triggerRunner(db, trigger);
    const inputs = mapInputs(
      (trigger.inputs ?? {}) as Record<string, unknown>,
      (trigger.inputMap ?? {}) as Record<string, string>,
      body,
    );
    const run = await startRun(
      { db, queue: deps.queue, onWaitOpened: (wait) => notifyWaitOpened(deps, wait) },
      {
        teamId: trigger.teamId,
        userId: runner.userId,
        role: runner.role,
        workflowId: trigger.workflowId,
        inputs,
        trigger: "webhook",
        triggerId: trigger.id,
        // A key names a delivery of this trigger: another trigger's may use the same one.
        ...(idempotencyKey ? { idempotencyKey: `webhook:${trigger.id}:${idempotencyKey}` } : {}),
      },
    );
    started();
    await recordTriggerFire(db, trigger.teamId, trigger.id, { runId: run.id });
    return { runId: run.id };
  } catch (error) {
    if (error instanceof AppError && !error.retryable)
      await recordTriggerFire(db, trigger.teamId, trigger.id, {
        error: `${error.code}: ${error.userMessage}`,
      });
    throw error;
  }
};
