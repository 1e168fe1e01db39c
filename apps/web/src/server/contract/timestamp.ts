/**
 * A moment in a response. The operations answer with a Date: the dashboard's procedures
 * carry it as one (superjson), the REST API as an ISO 8601 string (JSON), which this
 * schema reads back into a Date. The OpenAPI document shows the string. Where a caller
 * gives a moment (a filter, an expiry), it must be one PostgreSQL stores: years 0001 to
 * 9999 in UTC, else the request is refused as bad input naming the field.
 */
import { z } from "zod";
import { isStorableTime, STORABLE_TIME_RANGE } from "@switchyard/core/time";

export const TIMESTAMP_JSON_SCHEMA = { type: "string", description: "ISO 8601" } as const;

const storable = `a moment ${STORABLE_TIME_RANGE}`;

export const timestamp = z
  .union([z.date(), z.iso.datetime().transform((text) => new Date(text))])
  .refine(isStorableTime, storable);

/** A moment a caller gives as text (a query parameter): ISO 8601 with or without an offset, within what PostgreSQL stores. */
export const callerTime = z.iso
  .datetime({ offset: true })
  .refine((text) => isStorableTime(new Date(text)), storable);
