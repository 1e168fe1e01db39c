/**
 * Request and response shapes of the team's audit log (Settings → Audit log), for the tRPC
 * procedures: who changed what, on what, when, with the entry's facts (never a value).
 */
import { z } from "zod";
import { operation } from "./operation";
import { timestamp } from "./timestamp";

export const auditListInput = z.object({
  cursor: z.string().min(1).max(64).nullish().describe("the nextCursor of the page before"),
  action: z
    .string()
    .max(128)
    .optional()
    .describe("only actions starting with this, e.g. connector. or lane.create"),
  limit: z.number().int().min(1).max(100).default(50),
});

export const auditEntry = z.object({
  id: z.string(),
  action: z.string().describe("e.g. lane.create, connector.credential.set"),
  targetType: z.string(),
  targetId: z.string().nullable(),
  actorUserId: z.string().nullable(),
  actor: z
    .object({ id: z.string(), name: z.string(), email: z.string() })
    .nullable()
    .describe("null when the user is gone"),
  actorToken: z.string().nullable(),
  requestId: z
    .string()
    .nullable()
    .describe("the request that made the change (its x-request-id); null outside a request"),
  metadata: z
    .unknown()
    .describe("the entry's facts: names, lanes, kinds, fingerprints; never a value"),
  createdAt: timestamp,
});
export const auditPage = z.object({
  entries: z.array(auditEntry),
  nextCursor: z.string().nullable().describe("pass as cursor for the next page; null on the last"),
});

/** GET /audit: the same filters as query parameters. */
export const auditListQuery = z.object({
  cursor: z.string().min(1).max(64).optional().describe("the nextCursor of the page before"),
  action: z
    .string()
    .max(128)
    .optional()
    .describe("only actions starting with this, e.g. connector. or lane.create"),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const auditOperations = {
  list: operation({
    kind: "query",
    access: "team",
    role: "admin",
    input: auditListInput,
    output: auditPage,
    rest: {
      method: "GET",
      path: "/audit",
      summary:
        "Admins: the team's audit log, newest first, a page at a time: who changed what, on what, when, and the request that did it",
      query: auditListQuery,
      status: 200,
      description: "A page of entries and the cursor of the next",
    },
  }),
};
