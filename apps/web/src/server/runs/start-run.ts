/**
 * Starts a run from a web request: the shared start (`@switchyard/db` startRun) with the
 * request's trace context carried to the worker.
 */
import { context, propagation } from "@opentelemetry/api";
import { startRun as startRunOf, type StartRunDeps, type StartRunInput } from "@switchyard/db";

export const startRun = (deps: StartRunDeps, input: Omit<StartRunInput, "traceparent">) => {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return startRunOf(deps, { ...input, traceparent: carrier.traceparent });
};
