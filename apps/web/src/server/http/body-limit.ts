/**
 * Request body limits for the tRPC and REST routes: 1 MiB, or for the routes that take a
 * workflow bundle (or a pack's archive) its limit plus room for its JSON encoding. A body over its limit
 * fails with PAYLOAD_TOO_LARGE (HTTP 413) when it is read: at once if its Content-Length
 * says so, otherwise as soon as that many bytes have arrived, so it is never held whole.
 */
import { AppError } from "@switchyard/core/errors";
import { PACK_ARCHIVE_LIMITS } from "@switchyard/core/packs";
import { BUNDLE_LIMITS } from "../workflows/bundle-limits";

const MIB = 1024 * 1024;

export const BODY_LIMITS = {
  default: MIB,
  bundle: BUNDLE_LIMITS.totalBytes + MIB,
  /** a workflow pack's archive, base64-encoded */
  pack: Math.ceil((PACK_ARCHIVE_LIMITS.compressedBytes * 4) / 3) + MIB,
};

export const bodyTooLarge = (limitBytes: number) =>
  new AppError(
    "PAYLOAD_TOO_LARGE",
    `the request body is larger than ${Math.round((limitBytes / MIB) * 10) / 10} MiB`,
    { details: { limitBytes } },
  );

/** The same request, with a body that fails with PAYLOAD_TOO_LARGE past `limitBytes`. */
export const withBodyLimit = (req: Request, limitBytes: number): Request => {
  if (!req.body) return req;
  const declared = Number(req.headers.get("content-length") ?? "");
  let seen = 0;
  const limited = req.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        if (declared > limitBytes) controller.error(bodyTooLarge(limitBytes));
      },
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limitBytes) controller.error(bodyTooLarge(limitBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Request(req, { body: limited, duplex: "half" } as RequestInit);
};

/** The body as text, PAYLOAD_TOO_LARGE past `limitBytes` (the limit's own error, not the stream's wrapper). */
export const limitedText = async (req: Request, limitBytes: number) => {
  try {
    return await withBodyLimit(req, limitBytes).text();
  } catch (error) {
    throw error instanceof AppError
      ? error
      : error instanceof Error && error.cause instanceof AppError
        ? error.cause
        : error;
  }
};
