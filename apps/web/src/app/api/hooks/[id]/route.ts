/**
 * Inbound webhooks: POST /api/hooks/<trigger id>, authenticated by its X-Switchyard-Signature
 * (not an API token), with an optional Idempotency-Key. Answers 202 {runId}; 404 unknown,
 * 401 bad signature, 409 paused or a delivery already accepted, 413 too large, 405 another
 * method, each as { error: { code, message } } with the request's x-request-id.
 */
import { SIGNATURE_HEADER } from "@switchyard/core/triggers";
import { env } from "~/env";
import { errorAnswer, jsonAnswer } from "~/server/http/api-answer";
import { BODY_LIMITS, limitedText } from "~/server/http/body-limit";
import { otherMethods } from "~/server/http/other-methods";
import { servedWithRequestId } from "~/server/http/request-id";
import { db, keyring, redis, runQueue } from "~/server/services";
import { receiveWebhook } from "~/server/triggers/receive-webhook";

export const POST = (req: Request, { params }: { params: Promise<{ id: string }> }) =>
  servedWithRequestId(req, async () => {
    try {
      const { id } = await params;
      const rawBody = await limitedText(req, BODY_LIMITS.default);
      const result = await receiveWebhook(
        {
          db: db(),
          keyring: keyring(),
          queue: runQueue(),
          redis: redis(),
          prefix: env().SWITCHYARD_QUEUE_PREFIX,
        },
        {
          triggerId: id,
          signature: req.headers.get(SIGNATURE_HEADER),
          rawBody,
          idempotencyKey: req.headers.get("idempotency-key"),
        },
      );
      return jsonAnswer(202, result);
    } catch (error) {
      return errorAnswer(error, "webhook");
    }
  });

export const { GET, PUT, DELETE, PATCH, OPTIONS } = otherMethods(["POST"]);
