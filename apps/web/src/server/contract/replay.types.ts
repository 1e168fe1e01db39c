/**
 * The replay operations: start a replay of a finished agent attempt, compare two attempts,
 * and suite replays ("replay all examples" of a workflow) with their table of matches and
 * divergences; and what the replay form lists of the installed agent CLIs. Starting needs
 * what starting the workflow needs (its lane's startRoles); reading needs any role.
 */
import { z } from "zod";
import { PROVIDERS } from "@switchyard/core/workflow/vocabulary";
import { operation } from "./operation";
import { diffLine } from "./workflows.types";
import { runStatus, startRunResponse } from "./runs.types";
import { timestamp } from "./timestamp";

const START_LANE = "the workflow's lane's startRoles";

/** What a replay changes of the attempt it runs again (ReplayChanges); unset: as recorded. */
export const replayChanges = z.object({
  provider: z.enum(PROVIDERS).optional().describe("another provider; the recorded one when unset"),
  model: z.string().trim().min(1).max(200).optional().describe("another model (options.model)"),
  agentVersion: z
    .enum(["pinned", "latest"])
    .optional()
    .describe("the installed CLI that runs it: the pinned one (default) or the newest installed"),
  prompt: z.string().min(1).max(200_000).optional().describe("another prompt"),
  unmatched: z
    .enum(["error", "live_builtins"])
    .optional()
    .describe(
      "a call with no recording left: a tool error (default), or built-ins run live in the sandbox (connector tools never do)",
    ),
});

export const startReplayInput = replayChanges.extend({
  runId: z.string().min(1),
  stepRunId: z.string().min(1).describe("the agent attempt to replay"),
});

const jsonDifference = z.object({
  path: z.string().describe("where the values differ: $ is the value, $.a[0] a part of it"),
  kind: z.enum(["changed", "removed", "added"]),
  a: z.unknown().optional(),
  b: z.unknown().optional(),
});

const comparedCall = z.object({
  position: z.number().int().describe("its place in its own attempt's sequence, from 0"),
  tool: z.string(),
  arguments: z.unknown(),
  result: z.unknown(),
  isError: z.boolean(),
  replay: z.string().nullable().describe("in a replay: recorded, live or unmatched"),
});

const attemptSummary = z.object({
  id: z.string(),
  runId: z.string(),
  stateName: z.string(),
  status: z.string(),
  provider: z.string().nullable(),
  agentVersion: z.string().nullable(),
  model: z.string().nullable(),
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  costUsd: z.number().nullable(),
  durationMs: z.number().int().nullable(),
});

const delta = z.object({
  a: z.number().nullable(),
  b: z.number().nullable(),
  delta: z.number().nullable().describe("b minus a; null when either is unknown"),
});

export const compareQuery = z.object({
  a: z
    .string()
    .min(1)
    .optional()
    .describe("a step attempt's id; unset: the attempt b's run replays"),
  b: z.string().min(1).describe("a step attempt's id"),
});

export const compareResponse = z.object({
  a: attemptSummary,
  b: attemptSummary,
  match: z.boolean().describe("the same tool-call sequence and the same answer"),
  sameSequence: z.boolean(),
  sameAnswer: z.boolean(),
  firstDivergence: z
    .number()
    .int()
    .nullable()
    .describe("the row of calls where the sequences first part; null when they do not"),
  calls: z
    .array(
      z.object({
        a: comparedCall.nullable(),
        b: comparedCall.nullable(),
        sameCall: z.boolean().describe("same tool and same arguments (RFC 8785 canonical JSON)"),
        sameResult: z.boolean(),
        arguments: z.array(jsonDifference),
        result: z.array(jsonDifference),
      }),
    )
    .describe("the two sequences lined up: equal calls side by side, the rest paired in order"),
  answer: z.object({ a: z.string(), b: z.string(), lines: z.array(diffLine) }),
  inputTokens: delta,
  outputTokens: delta,
  costUsd: delta,
  durationMs: delta,
});

export const suiteStartInput = replayChanges.extend({ workflowId: z.string().min(1) });
export const suiteStartResponse = z.object({
  id: z.string(),
  runs: z.array(z.object({ id: z.string(), replayOfId: z.string() })),
});

const suiteEntry = z.object({
  id: z.string(),
  options: replayChanges,
  createdAt: timestamp,
  replays: z.number().int().describe("the replay runs it started"),
});

export const suiteListResponse = z.object({ suites: z.array(suiteEntry) });

export const suiteShowResponse = z.object({
  id: z.string(),
  workflowId: z.string(),
  options: replayChanges,
  createdAt: timestamp,
  counts: z.object({
    total: z.number().int(),
    matched: z.number().int(),
    diverged: z.number().int(),
    pending: z.number().int().describe("not finished, or finished without an attempt"),
  }),
  replays: z.array(
    z.object({
      runId: z.string(),
      status: runStatus,
      source: z.object({ stepRunId: z.string(), runId: z.string(), stateName: z.string() }),
      stepRunId: z.string().nullable().describe("the replay's attempt, once it has one"),
      match: z.boolean().nullable().describe("null until the replay's attempt has finished"),
      firstDivergence: z.number().int().nullable(),
      sameAnswer: z.boolean().nullable(),
      inputTokens: delta.nullable(),
      outputTokens: delta.nullable(),
      costUsd: delta.nullable(),
    }),
  ),
});

export const agentVersionsResponse = z.object({
  agents: z.array(
    z.object({
      agent: z.string(),
      pinned: z.string().describe("the version scripts/agents.json pins"),
      latest: z
        .string()
        .nullable()
        .describe("the newest installed with --latest, when there is one"),
    }),
  ),
});

const workflowIdPath = { id: "workflowId" };

export const replayOperations = {
  start: operation({
    kind: "mutation",
    access: "team",
    lane: START_LANE,
    input: startReplayInput,
    output: startRunResponse,
    rest: {
      method: "POST",
      path: "/runs/{runId}/steps/{stepRunId}/replay",
      summary:
        "Replay a finished agent attempt: a new run (trigger replay) of the same workflow version, lane and inputs that runs that attempt again from its workspace snapshot, its tool calls answered from the recording; optionally another provider, model, CLI version or prompt",
      body: replayChanges.default({}),
      status: 202,
      description: "The replay run, queued",
      errors: {
        400: "The attempt is not a finished agent attempt with a recorded request (USER.REPLAY.NOT_REPLAYABLE)",
        409: "The workspace the attempt started from was not kept (USER.REPLAY.NO_SNAPSHOT)",
      },
    },
  }),
  compare: operation({
    kind: "query",
    access: "team",
    input: compareQuery,
    output: compareResponse,
    rest: {
      method: "GET",
      path: "/compare",
      summary:
        "Compare two step attempts (?a=&b=; without a, b's replay run against the attempt it replays): the tool-call sequences lined up with the first divergence, argument and result differences, the answer's line diff, tokens, cost and duration",
      query: compareQuery,
      status: 200,
      description: "The comparison",
      errors: { 400: "a unset and b is not the attempt of a replay (USER.REPLAY.NOT_A_REPLAY)" },
    },
  }),
  suiteStart: operation({
    kind: "mutation",
    access: "team",
    lane: START_LANE,
    input: suiteStartInput,
    output: suiteStartResponse,
    rest: {
      method: "POST",
      path: "/workflows/{id}/replay-suites",
      params: workflowIdPath,
      summary:
        "Replay all examples: one replay run for the last attempt of each agent state of each run marked as an example, all with the same changes",
      body: replayChanges.default({}),
      status: 202,
      description: "The suite and its replay runs, queued",
      errors: { 400: "No example run has a replayable agent attempt (USER.REPLAY.NO_EXAMPLES)" },
    },
  }),
  suiteList: operation({
    kind: "query",
    access: "team",
    input: z.object({ workflowId: z.string().min(1) }),
    output: suiteListResponse,
    rest: {
      method: "GET",
      path: "/workflows/{id}/replay-suites",
      params: workflowIdPath,
      summary: "The workflow's suite replays, newest first",
      status: 200,
      description: "Suites",
    },
  }),
  suiteShow: operation({
    kind: "query",
    access: "team",
    input: z.object({ id: z.string().min(1) }),
    output: suiteShowResponse,
    rest: {
      method: "GET",
      path: "/replay-suites/{id}",
      summary:
        "A suite replay's table: each replay's source attempt, status, match or first divergence, and its token and cost differences",
      status: 200,
      description: "The suite",
    },
  }),
};

export const agentOperations = {
  versions: operation({
    kind: "query",
    access: "team",
    output: agentVersionsResponse,
    rest: {
      method: "GET",
      path: "/agents/versions",
      summary: "The agent CLI versions a replay can run: the pinned one and the newest installed",
      status: 200,
      description: "Versions per CLI",
    },
  }),
};
