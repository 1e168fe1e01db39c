/**
 * Inbound webhooks: POST /api/hooks/<trigger id>, authenticated by its X-Switchyard-Signature
 * (not an API token). Answers 202 {runId}; 404 unknown, 401 bad signature, 409 paused or a
 * delivery already accepted, 413 too large, each as { error: { code, message } }.
 */
import { AppError, surfaceOfError } from "@switchyard/core/errors";
import { SIGNATURE_HEADER } from "@switchyard/core/triggers";
import { BODY_LIMITS, withBodyLimit } from "~/server/http/body-limit";
import { env } from "~/env";
import { db, keyring, redis, runQueue } from "~/server/services";
import { receiveWebhook } from "~/server/triggers/receive-webhook";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });

export const POST = async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  try {
    const { id } = await params;
    let rawBody: string;
    try {
      rawBody = await withBodyLimit(req, BODY_LIMITS.default).text();
    } catch (error) {
      throw error instanceof AppError ? error : error instanceof Error && error.cause instanceof AppError ? error.cause : error;
    }
    const result = await receiveWebhook({ db: db(), keyring: keyring(), queue: runQueue(), redis: redis(), prefix: env().SWITCHYARD_QUEUE_PREFIX }, { triggerId: id, signature: req.headers.get(SIGNATURE_HEADER), rawBody });
    return json(202, result);
  } catch (error) {
    if (error instanceof AppError) return json(surfaceOfError(error).http, { error: { code: error.code, message: error.userMessage } });
    console.error("switchyard-web: webhook failed", error);
    return json(500, { error: { code: "INTERNAL", message: "something went wrong" } });
  }
};
