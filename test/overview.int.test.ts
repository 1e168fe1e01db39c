/**
 * The team overview's aggregates against the real database: rows seeded at chosen
 * moments, the expected counts, percentiles and sums worked out by hand, bucketed by the
 * viewer's local day (America/New_York, UTC-5 in late November), and nothing of another
 * team or outside the range counted.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { saveWorkflowVersion, teamOverview, type Db } from "@switchyard/db";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";

let seeded: SeededDatabase;
let db: Db;
let teamId: string;
let otherTeamId: string;

const NOW = new Date("2026-11-30T12:00:00Z"); // 07:00 on 30 Nov in New York
const TZ = "America/New_York";
const at = (iso: string) => new Date(iso);

const workflowIn = async (team: string, name: string) => {
  const version = await saveWorkflowVersion(db, {
    teamId: team,
    name,
    files: {
      "workflow.yaml": `name: ${name}\nstates:\n  initial: s\n  s: { type: step, command: 'true' }\n`,
    },
  });
  return version;
};

const runIn = async (
  version: { id: string; workflowId: string; teamId: string },
  status: "queued" | "running" | "succeeded" | "failed" | "cancelled",
  createdAt: string,
) =>
  db.run.create({
    data: {
      teamId: version.teamId,
      workflowId: version.workflowId,
      workflowVersionId: version.id,
      lane: "default",
      trigger: "api",
      status,
      createdAt: at(createdAt),
    },
  });

const stepIn = async (
  run: { id: string; teamId: string },
  createdAt: string,
  options: { ms?: number; inputTokens?: number; outputTokens?: number; costUsd?: string } = {},
) =>
  db.stepRun.create({
    data: {
      teamId: run.teamId,
      runId: run.id,
      stateName: "s",
      stepType: "agent",
      status: options.ms === undefined ? "running" : "succeeded",
      createdAt: at(createdAt),
      startedAt: at(createdAt),
      finishedAt: options.ms === undefined ? null : new Date(at(createdAt).getTime() + options.ms),
      inputTokens: options.inputTokens,
      outputTokens: options.outputTokens,
      costUsd: options.costUsd,
    },
  });

const callIn = async (
  step: { id: string; runId: string; teamId: string },
  toolName: string,
  startedAt: string,
  options: { connectorId?: string; isError?: boolean } = {},
) =>
  db.toolCall.create({
    data: {
      teamId: step.teamId,
      runId: step.runId,
      stepRunId: step.id,
      toolName,
      source: options.connectorId ?? "builtin",
      connectorId: options.connectorId,
      arguments: {},
      isError: options.isError ?? false,
      startedAt: at(startedAt),
      durationMs: 5,
    },
  });

beforeAll(async () => {
  seeded = await openSeededDatabase();
  ({ db, teamId } = seeded);
  otherTeamId = (await db.team.create({ data: { slug: "other", name: "Other team" } })).id;

  const w1 = await workflowIn(teamId, "w-one");
  const w2 = await workflowIn(teamId, "w-two");
  const elsewhere = await workflowIn(otherTeamId, "w-elsewhere");

  const r1 = await runIn(w1, "succeeded", "2026-11-30T04:00:00Z"); // 29 Nov 23:00 local
  const r2 = await runIn(w1, "failed", "2026-11-30T06:00:00Z"); // 30 Nov 01:00 local
  const r3 = await runIn(w2, "succeeded", "2026-11-30T10:00:00Z"); // 30 Nov
  await runIn(w2, "cancelled", "2026-11-24T05:30:00Z"); // 24 Nov 00:30 local: the range's first day
  const r5 = await runIn(w1, "succeeded", "2026-11-24T04:30:00Z"); // 23 Nov 23:30 local: before the range
  await runIn(w1, "running", "2026-11-30T13:00:00Z"); // after now
  const foreign = await runIn(elsewhere, "succeeded", "2026-11-30T10:00:00Z");

  await stepIn(r2, "2026-11-30T06:00:00Z", {
    ms: 1000,
    inputTokens: 100,
    outputTokens: 50,
    costUsd: "0.010000",
  });
  const s2 = await stepIn(r3, "2026-11-30T10:00:00Z", {
    ms: 3000,
    inputTokens: 200,
    outputTokens: 100,
    costUsd: "0.020000",
  });
  await stepIn(r1, "2026-11-30T04:00:00Z", { ms: 5000 }); // 29 Nov local, no usage
  await stepIn(r3, "2026-11-30T10:01:00Z", {
    inputTokens: 10,
    outputTokens: 5,
    costUsd: "0.001000",
  }); // still running: usage, no duration
  const old = await stepIn(r5, "2026-11-24T04:30:00Z", {
    ms: 100_000,
    inputTokens: 999,
    outputTokens: 999,
    costUsd: "9.000000",
  });
  const foreignStep = await stepIn(foreign, "2026-11-30T10:00:00Z", {
    ms: 7000,
    inputTokens: 777,
    outputTokens: 777,
    costUsd: "7.000000",
  });

  await callIn(s2, "Read", "2026-11-30T10:00:01Z");
  await callIn(s2, "Read", "2026-11-30T10:00:02Z", { isError: true });
  await callIn(s2, "Read", "2026-11-30T10:00:03Z");
  await callIn(s2, "github_search", "2026-11-30T10:00:04Z", { connectorId: "github" });
  await callIn(s2, "github_search", "2026-11-30T10:00:05Z", {
    connectorId: "github",
    isError: true,
  });
  await callIn(s2, "slack_post", "2026-11-30T10:00:06Z", { connectorId: "slack", isError: true });
  await callIn(old, "Read", "2026-11-24T04:30:01Z"); // before the range
  await callIn(foreignStep, "Read", "2026-11-30T10:00:01Z", { connectorId: "github" }); // another team
});
afterAll(async () => {
  await seeded?.close();
});

it("counts runs by status per local day, and the success rate of the finished ones", async () => {
  const overview = await teamOverview(db, { teamId, days: 7, timeZone: TZ, now: NOW });
  expect(overview.range).toEqual({
    days: 7,
    timeZone: TZ,
    from: at("2026-11-24T05:00:00Z"),
    to: NOW,
  });
  expect(overview.runs).toEqual({
    total: 4,
    byStatus: { queued: 0, running: 0, waiting: 0, succeeded: 2, failed: 1, cancelled: 1 },
    successRate: 0.5,
  });
  expect(overview.perDay.map((d) => d.date)).toEqual([
    "2026-11-24",
    "2026-11-25",
    "2026-11-26",
    "2026-11-27",
    "2026-11-28",
    "2026-11-29",
    "2026-11-30",
  ]);
  const runsOn = Object.fromEntries(overview.perDay.map((d) => [d.date, d.runs]));
  expect(runsOn["2026-11-24"]).toEqual({
    queued: 0,
    running: 0,
    waiting: 0,
    succeeded: 0,
    failed: 0,
    cancelled: 1,
  });
  expect(runsOn["2026-11-29"]).toEqual({
    queued: 0,
    running: 0,
    waiting: 0,
    succeeded: 1,
    failed: 0,
    cancelled: 0,
  });
  expect(runsOn["2026-11-30"]).toEqual({
    queued: 0,
    running: 0,
    waiting: 0,
    succeeded: 1,
    failed: 1,
    cancelled: 0,
  });
  expect(runsOn["2026-11-27"]).toEqual({
    queued: 0,
    running: 0,
    waiting: 0,
    succeeded: 0,
    failed: 0,
    cancelled: 0,
  });
});

it("takes p50 and p95 of finished steps' durations per day and overall (linear interpolation)", async () => {
  const overview = await teamOverview(db, { teamId, days: 7, timeZone: TZ, now: NOW });
  // overall: 1000, 3000, 5000 ms → p50 3000, p95 3000 + 0.9 × 2000 = 4800
  expect(overview.stepDuration).toEqual({ p50Ms: 3000, p95Ms: 4800, steps: 3 });
  const day = Object.fromEntries(overview.perDay.map((d) => [d.date, d.stepDuration]));
  // 30 Nov: 1000, 3000 → p50 2000, p95 1000 + 0.95 × 2000 = 2900
  expect(day["2026-11-30"]).toEqual({ p50Ms: 2000, p95Ms: 2900, steps: 2 });
  expect(day["2026-11-29"]).toEqual({ p50Ms: 5000, p95Ms: 5000, steps: 1 });
  expect(day["2026-11-28"]).toEqual({ p50Ms: null, p95Ms: null, steps: 0 });
});

it("sums tokens and cost per day, overall and per workflow", async () => {
  const overview = await teamOverview(db, { teamId, days: 7, timeZone: TZ, now: NOW });
  expect(overview.usage.inputTokens).toBe(310);
  expect(overview.usage.outputTokens).toBe(155);
  expect(overview.usage.costUsd).toBeCloseTo(0.031, 9);
  const day = Object.fromEntries(overview.perDay.map((d) => [d.date, d.usage]));
  expect(day["2026-11-30"]).toMatchObject({ inputTokens: 310, outputTokens: 155 });
  expect(day["2026-11-29"]).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0 });
  expect(
    overview.usageByWorkflow.map((w) => [w.name, w.steps, w.inputTokens, w.outputTokens]),
  ).toEqual([
    ["w-two", 2, 210, 105],
    ["w-one", 2, 100, 50],
  ]);
  expect(overview.usageByWorkflow[0]!.costUsd).toBeCloseTo(0.021, 9);
  expect(overview.usageByWorkflow[1]!.costUsd).toBeCloseTo(0.01, 9);
});

it("ranks tools and connectors by calls with their error rates", async () => {
  const overview = await teamOverview(db, { teamId, days: 7, timeZone: TZ, now: NOW });
  expect(overview.topTools).toEqual([
    { name: "Read", calls: 3, errors: 1, errorRate: 1 / 3 },
    { name: "github_search", calls: 2, errors: 1, errorRate: 0.5 },
    { name: "slack_post", calls: 1, errors: 1, errorRate: 1 },
  ]);
  expect(overview.topConnectors).toEqual([
    { connectorId: "github", calls: 2, errors: 1, errorRate: 0.5 },
    { connectorId: "slack", calls: 1, errors: 1, errorRate: 1 },
  ]);
});

it("buckets by the viewer's zone: in UTC the 04:00 run is on 30 Nov and the first day starts at midnight UTC", async () => {
  const overview = await teamOverview(db, { teamId, days: 7, timeZone: "UTC", now: NOW });
  expect(overview.range.from).toEqual(at("2026-11-24T00:00:00Z"));
  const runsOn = Object.fromEntries(overview.perDay.map((d) => [d.date, d.runs]));
  expect(runsOn["2026-11-30"]).toEqual({
    queued: 0,
    running: 0,
    waiting: 0,
    succeeded: 2,
    failed: 1,
    cancelled: 0,
  });
  expect(runsOn["2026-11-29"]!.succeeded).toBe(0);
  // 24 Nov 04:30 UTC is inside a UTC week: both runs of that day count.
  expect(runsOn["2026-11-24"]).toMatchObject({ succeeded: 1, cancelled: 1 });
});

it("shows a new team all zeros, one entry per day", async () => {
  const overview = await teamOverview(db, {
    teamId: otherTeamId,
    days: 30,
    timeZone: "Asia/Tokyo",
    now: at("2026-01-01T00:00:00Z"),
  });
  expect(overview.perDay).toHaveLength(30);
  expect(overview.perDay.at(-1)!.date).toBe("2026-01-01"); // 09:00 in Tokyo
  expect(overview.perDay[0]!.date).toBe("2025-12-03");
  expect(overview.runs).toEqual({
    total: 0,
    byStatus: { queued: 0, running: 0, waiting: 0, succeeded: 0, failed: 0, cancelled: 0 },
    successRate: null,
  });
  expect(overview.stepDuration).toEqual({ p50Ms: null, p95Ms: null, steps: 0 });
  expect(overview.usageByWorkflow).toEqual([]);
  expect(overview.topTools).toEqual([]);
});

it("refuses a time zone the database does not know, naming the parameter", async () => {
  const refused = await teamOverview(db, {
    teamId,
    days: 7,
    timeZone: "Mars/Olympus_Mons",
    now: NOW,
  }).then(
    () => undefined,
    (error: unknown) => error as { code: string; message: string },
  );
  expect(refused?.code).toBe("BAD_REQUEST");
  expect(refused?.message).toMatch(/^tz: unknown time zone "Mars\/Olympus_Mons"/);
});
