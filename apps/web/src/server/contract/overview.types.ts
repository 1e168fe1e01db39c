/**
 * Request and response shapes of the team overview (the dashboard's landing page, tRPC
 * `overview.get`, REST GET /overview): runs, step durations, tokens and cost, tools and
 * connectors over the last 7, 30 or 90 days, by the viewer's local day.
 */
import { z } from "zod";
import { operation } from "./operation";
import { timestamp } from "./timestamp";

export const OVERVIEW_RANGES = [7, 30, 90] as const;

/** An IANA zone name (Europe/Berlin, UTC, Etc/GMT+5) the runtime knows; offsets like +05:00 are refused (Postgres reads their sign the POSIX way). */
export const timeZoneName = z
  .string()
  .min(1)
  .max(64)
  .regex(
    /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/,
    "an IANA time zone name such as Europe/Berlin",
  )
  .refine((name) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: name });
      return true;
    } catch {
      return false;
    }
  }, "an IANA time zone name such as Europe/Berlin");

export const overviewInput = z.object({
  days: z.union([z.literal(7), z.literal(30), z.literal(90)]).default(30),
  timeZone: timeZoneName.default("UTC"),
});

/** GET /overview?days=&tz= */
export const overviewQuery = z.object({
  days: z
    .enum(["7", "30", "90"])
    .default("30")
    .describe("the range: 7, 30 or 90 days ending today")
    .transform(Number),
  tz: timeZoneName
    .default("UTC")
    .describe("the IANA time zone whose days the range and its buckets follow, e.g. Europe/Berlin"),
});

const runCounts = z.object({
  queued: z.number().int(),
  running: z.number().int(),
  waiting: z.number().int().describe("waiting for a person's answer"),
  succeeded: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});
const duration = z.object({
  p50Ms: z
    .number()
    .nullable()
    .describe("median duration of the finished steps, ms; null without any"),
  p95Ms: z.number().nullable().describe("95th percentile (linear interpolation), ms"),
  steps: z.number().int().describe("finished steps measured"),
});
const usage = z.object({ inputTokens: z.number(), outputTokens: z.number(), costUsd: z.number() });
const callCounts = {
  calls: z.number().int(),
  errors: z.number().int(),
  errorRate: z.number().describe("errors / calls, 0 to 1"),
};

export const overviewResponse = z.object({
  range: z.object({
    days: z.number().int(),
    timeZone: z.string(),
    from: timestamp.describe("local midnight of the first day"),
    to: timestamp.describe("now"),
  }),
  runs: z.object({
    total: z.number().int(),
    byStatus: runCounts,
    successRate: z
      .number()
      .nullable()
      .describe("succeeded / (succeeded + failed + cancelled); null when none finished"),
  }),
  stepDuration: duration,
  usage,
  perDay: z.array(
    z.object({
      date: z.string().describe("YYYY-MM-DD in the time zone"),
      runs: runCounts,
      stepDuration: duration,
      usage,
    }),
  ),
  usageByWorkflow: z
    .array(
      z.object({
        workflowId: z.string(),
        name: z.string(),
        steps: z.number().int(),
        ...usage.shape,
      }),
    )
    .describe("the ten costliest workflows"),
  topTools: z
    .array(z.object({ name: z.string(), ...callCounts }))
    .describe("the ten most called tools"),
  topConnectors: z
    .array(z.object({ connectorId: z.string(), ...callCounts }))
    .describe("the ten most called connectors"),
});

export const overviewOperations = {
  get: operation({
    kind: "query",
    access: "team",
    input: overviewInput,
    output: overviewResponse,
    rest: {
      method: "GET",
      path: "/overview",
      summary:
        "The team's runs by status and day, success rate, p50/p95 step duration, tokens and cost per day and per workflow, and the most called tools and connectors, over the last 7, 30 or 90 days in a time zone",
      query: overviewQuery,
      toInput: ({ days, tz }) => ({ days, timeZone: tz }),
      status: 200,
      description: "The overview",
    },
  }),
};
