/**
 * A moment in a response. The operations answer with a Date: the dashboard's procedures
 * carry it as one (superjson), the REST API as an ISO 8601 string (JSON), which this
 * schema reads back into a Date. The OpenAPI document shows the string.
 */
import { z } from "zod";

export const TIMESTAMP_JSON_SCHEMA = { type: "string", description: "ISO 8601" } as const;

export const timestamp = z.union([z.date(), z.iso.datetime().transform((text) => new Date(text))]);
