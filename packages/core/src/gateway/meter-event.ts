/**
 * Turns what one forwarded request showed (its usage reading, status and whether it ran to
 * the end) into the meter's event: the model named by the response, else by the path or
 * the request, and the cost from the price table (null for a model it has no price for).
 * No usage seen, no event.
 */
import type { ForwardOutcome } from "./forward-request";
import type { MeterEvent, PriceTable, Vendor } from "./gateway-types";
import { costOf, priceOf } from "./price-table";
import { requestModel } from "./read-request";
import type { Route } from "./vendor-routes";

export type MeterInput = {
  requestId: string;
  vendor: Vendor;
  route: Route;
  body: Buffer;
  outcome: ForwardOutcome;
  prices: PriceTable;
};

export const meterEventOf = (input: MeterInput): MeterEvent | undefined => {
  const { outcome } = input;
  const usage = outcome.reading?.usage;
  if (!usage) return undefined;
  const model = outcome.reading?.model ?? input.route.model ?? requestModel(input.body) ?? null;
  const price = model ? priceOf(model, input.prices) : undefined;
  return {
    ...usage,
    requestId: input.requestId,
    ...(outcome.upstreamRequestId ? { upstreamRequestId: outcome.upstreamRequestId } : {}),
    vendor: input.vendor,
    model,
    costUsd: price ? costOf(usage, price) : null,
    status: outcome.status,
    complete: outcome.complete,
  };
};
