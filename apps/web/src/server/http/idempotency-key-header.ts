/**
 * The Idempotency-Key header of a request that starts a run (a REST start, an inbound
 * webhook), checked as a body's fields are: a bad one is refused naming the header.
 */
import { AppError } from "@switchyard/core/errors";
import { idempotencyKey } from "../contract/runs.types";

export const idempotencyKeyHeader = (raw: string | null | undefined) => {
  const key = raw === null || raw === undefined ? undefined : idempotencyKey.safeParse(raw);
  if (key && !key.success)
    throw new AppError(
      "BAD_REQUEST",
      `Idempotency-Key: ${key.error.issues[0]?.message ?? "invalid"}`,
      { location: { path: "Idempotency-Key" } },
    );
  return key?.data;
};
