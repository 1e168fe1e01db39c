/**
 * Sends one notification: a signed JSON POST of the run's end (or of a wait that opened, with
 * the wait and the run's page to answer it on) to the endpoint, answered
 * within ten seconds. A 2xx marks it delivered; anything else is recorded on the delivery
 * and thrown, so BullMQ retries it with backoff until the last attempt marks it failed.
 */
import type { FetchLike } from "@switchyard/core/egress";
import { AppError } from "@switchyard/core/errors";
import type { Keyring } from "@switchyard/core/crypto";
import {
  NOTIFICATION_TIMEOUT_MS,
  openSigningSecret,
  SIGNATURE_HEADER,
  signatureHeader,
  type NotificationEvent,
  type NotificationJob,
  type NotificationPayload,
  budgetOfKey,
} from "@switchyard/core/triggers";
import { deliveryToSend, recordDeliveryAttempt, type Db } from "@switchyard/db";

export type DeliverDeps = {
  db: Db;
  keyring: Keyring;
  /** the dashboard's address, for the run's link */
  baseUrl: string;
  /** the worker's egress fetch for notifications (its rule, a 10 s bound, no redirect followed) */
  fetch: FetchLike;
};

/**
 * What a failed attempt records: the egress rule's words (a refusal, a timeout, "could not
 * be reached"), never what the endpoint sent.
 */
const deliveryError = (cause: unknown) => {
  if (cause instanceof AppError) return `${cause.code}: ${cause.message}`;
  if (cause instanceof Error && cause.name === "TimeoutError")
    return `the endpoint did not answer within ${NOTIFICATION_TIMEOUT_MS / 1000} s`;
  return "could not reach the endpoint";
};

/** Thrown for an attempt that may succeed later; the caller lets BullMQ retry it. */
export class DeliveryAttemptFailed extends Error {}

export const deliverNotification = async (
  deps: DeliverDeps,
  job: NotificationJob,
  finalAttempt: boolean,
) => {
  const found = await deliveryToSend(deps.db, job.teamId, job.deliveryId);
  if (!found || found.delivery.status === "delivered") return { skipped: true as const };
  if (!found.sealed)
    throw new AppError("SYSTEM.CREDENTIAL_MISSING", "the endpoint has no signing secret");
  const secret = openSigningSecret(
    deps.keyring,
    {
      teamId: job.teamId,
      credentialId: found.sealed.credentialId,
      holder: { kind: "notification", id: found.endpoint.id },
    },
    found.sealed.envelope,
  );
  const run = found.run;
  const runUrl = `${deps.baseUrl.replace(/\/$/, "")}/runs/${found.delivery.runId}`;
  const payload: NotificationPayload = {
    event: found.delivery.event as NotificationEvent,
    ...(run ? {} : { test: true }),
    run: {
      id: found.delivery.runId,
      workflow: run?.workflow ?? "test",
      status: run?.status ?? "succeeded",
      errorCode: run?.errorCode ?? null,
      startedAt: run?.startedAt?.toISOString() ?? null,
      finishedAt: run?.finishedAt?.toISOString() ?? null,
      url: runUrl,
    },
    ...(found.delivery.event === "budget.warning" && budgetOfKey(found.delivery.subject)
      ? { budget: budgetOfKey(found.delivery.subject)! }
      : {}),
    ...(found.wait
      ? {
          wait: {
            id: found.wait.id,
            kind: found.wait.kind,
            question: found.wait.question,
            url: runUrl,
          },
        }
      : {}),
  };
  const body = JSON.stringify(payload);
  let statusCode: number | undefined;
  let error: string | undefined;
  try {
    const res = await deps.fetch(found.endpoint.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "switchyard-notifications",
        [SIGNATURE_HEADER]: signatureHeader(secret, body),
      },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(NOTIFICATION_TIMEOUT_MS),
    });
    statusCode = res.status;
    await res.body?.cancel().catch(() => undefined);
    if (res.status < 200 || res.status >= 300) error = `the endpoint answered ${res.status}`;
  } catch (cause) {
    error = deliveryError(cause);
  }
  if (!error) {
    await recordDeliveryAttempt(deps.db, job.teamId, job.deliveryId, {
      status: "delivered",
      statusCode,
    });
    return { delivered: true as const, statusCode };
  }
  await recordDeliveryAttempt(deps.db, job.teamId, job.deliveryId, {
    status: finalAttempt ? "failed" : "pending",
    statusCode,
    error,
  });
  throw new DeliveryAttemptFailed(error);
};
