/**
 * An inbound webhook (POST /api/hooks/<trigger id>): the trigger is found by its id alone,
 * the request's X-Switchyard-Signature is checked against the raw body with the trigger's
 * signing secret (opened here), and only then is anything else said about it: paused is a
 * conflict, and a valid body starts a run as the member the trigger runs as (its creator,
 * or the admin who last changed it), whose role is checked now, with the body's mapped values over the trigger's default inputs.
 * An unknown id is 404 and a bad signature 401, whatever else is true of the trigger.
 */
import type { Keyring } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import { mapInputs, openSigningSecret, verifySignature } from "@switchyard/core/triggers";
import { recordTriggerFire, triggerRunner, webhookTriggerForDelivery, type Db, type StartRunDeps } from "@switchyard/db";
import { startRun } from "../runs/start-run";

export type ReceiveWebhookDeps = { db: Db; keyring: Keyring; queue: StartRunDeps["queue"] };

export const receiveWebhook = async (deps: ReceiveWebhookDeps, input: { triggerId: string; signature: string | null; rawBody: string }) => {
  const { db } = deps;
  const trigger = await webhookTriggerForDelivery(db, input.triggerId);
  if (!trigger) throw new AppError("NOT_FOUND", "no such webhook");
  const secret = openSigningSecret(deps.keyring, { teamId: trigger.teamId, credentialId: trigger.sealed.credentialId, holder: { kind: "trigger", id: trigger.id } }, trigger.sealed.envelope);
  verifySignature({ secret, header: input.signature, body: input.rawBody });
  if (trigger.paused) throw new AppError("USER.TRIGGER.PAUSED", "this webhook trigger is paused; resume it in the dashboard");
  let body: unknown;
  try {
    body = input.rawBody.trim() === "" ? {} : JSON.parse(input.rawBody);
  } catch {
    throw new AppError("BAD_REQUEST", "the body is not valid JSON");
  }
  try {
    const runner = await triggerRunner(db, trigger);
    const inputs = mapInputs((trigger.inputs ?? {}) as Record<string, unknown>, (trigger.inputMap ?? {}) as Record<string, string>, body);
    const run = await startRun(
      { db, queue: deps.queue },
      { teamId: trigger.teamId, userId: runner.userId, role: runner.role, workflowId: trigger.workflowId, inputs, trigger: "webhook", triggerId: trigger.id },
    );
    await recordTriggerFire(db, trigger.teamId, trigger.id, { runId: run.id });
    return { runId: run.id };
  } catch (error) {
    if (error instanceof AppError && !error.retryable) await recordTriggerFire(db, trigger.teamId, trigger.id, { error: `${error.code}: ${error.userMessage}` });
    throw error;
  }
};

