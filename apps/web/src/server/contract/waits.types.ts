/**
 * Request and response shapes of waits for a person's answer (a tool call held for
 * approval, the inputs a triggered run waits for), shared by the tRPC procedures, the REST routes and the generated OpenAPI
 * document. Any member reads the team's waits; who may answer one is the wait's own rule
 * (its minimum role, its lane's start roles, and not the run's starter when it says so),
 * checked when the answer comes: a refusal is 403 USER.WAIT.NOT_ALLOWED.
 */
import { z } from "zod";
import {
  decisionAnswerSchema,
  elicitationAnswerSchema,
  inputsAnswerSchema,
  waitMessageSchema,
} from "@switchyard/core/governance";
import { operation } from "./operation";
import { runStatus } from "./runs.types";
import { timestamp } from "./timestamp";

const waitStatus = z.enum(["open", "answered", "expired", "cancelled"]);
const role = z.enum(["owner", "admin", "member", "viewer"]);

/**
 * An approval's answer: approve or deny, a denial with a message the agent receives as the
 * tool's error. An `input` wait's: the inputs it asks for, checked as a run start's are. A
 * conversation's (kind message): the person's next message, where `exit`, `quit` or an empty
 * one ends it.
 */
export const waitAnswerBody = z.union([
  decisionAnswerSchema.describe("a tool_call wait: approve or deny the held call"),
  inputsAnswerSchema.describe(
    "an input wait: a value for each input it asks for (every required one), checked as a run start's inputs; a problem is 400 USER.INPUT.VALIDATION_FAILED naming inputs.<name>",
  ),
  waitMessageSchema.describe(
    "a message wait: the conversation's next message; exit, quit or an empty message ends it",
  ),
  elicitationAnswerSchema.describe(
    "an elicitation wait (a connector server's form): accept with the form's content (left-out fields take the form's defaults; a value that does not fit is 400 USER.ELICITATION.INVALID_ANSWER naming content.<field>), decline or cancel",
  ),
]);

export const waitListing = z.object({
  id: z.string(),
  runId: z.string().nullable().describe("null: a call made by hand in the connector console"),
  stepRunId: z.string().nullable().describe("the agent attempt that waits"),
  kind: z
    .string()
    .describe(
      "tool_call: approve or deny one held tool call; input: fill in the inputs a triggered run was started without; message: a conversation step's next message; elicitation: a connector server's form during a tool call",
    ),
  status: waitStatus,
  question: z.string().describe("what the person is asked, in one line"),
  detail: z
    .unknown()
    .describe(
      "tool_call: { tool, source, arguments (scrubbed), argumentsHash, rule, ruleOrigin, agentText, state, provider }; input: { inputs: [{ name, type, required, default, description, validation: { enum, pattern, min, max, fileExtension } }], missing: [names of the required ones] }; message: { state, provider, turn, reply (scrubbed), prompt (turn 1) }; elicitation: { connector, tool, message (scrubbed), requestedSchema, fields: [{ name, type (string, number, integer, boolean, enum, multi), title, description, required, default, options, limits }], state }",
    ),
  argumentsHash: z
    .string()
    .nullable()
    .describe(
      "SHA-256 of the call's arguments in RFC 8785 form: an approval holds for this call only",
    ),
  minRole: role,
  lane: z.string(),
  notStarter: z.boolean().describe("the run's starter may not answer"),
  expiresAt: timestamp.nullable(),
  onExpiry: z.string().describe("what expiry means: deny, fail or default"),
  answer: z
    .object({
      decision: z.string().optional(),
      action: z
        .string()
        .optional()
        .describe("an elicitation's: accept, decline or cancel (the form's content is not shown)"),
      message: z.string().optional(),
      inputs: z
        .array(z.string())
        .optional()
        .describe("decision inputs: the names of the inputs given (their values are the run's)"),
    })
    .nullable()
    .describe(
      "the answer given (or expiry's: decision fail fails the step, or the run of an input wait); a message wait's is { message }",
    ),
  answeredBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  answeredByToken: z.string().nullable().describe("the API token's id when an automation answered"),
  answeredAt: timestamp.nullable(),
  parked: z.boolean().describe("the run stopped holding a worker and resumes on the answer"),
  createdAt: timestamp,
  run: z
    .object({
      status: runStatus,
      workflow: z.string(),
      startedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
    })
    .nullable()
    .describe("null: a connector console call's form"),
  answerers: z.string().describe("who may answer, in words"),
  mayAnswer: z.boolean().describe("whether the caller may answer it now"),
  refusal: z.string().nullable().describe("why the caller may not answer an open wait"),
});

const commonQuery = {
  status: waitStatus.optional().describe("only waits in this status"),
  runId: z.string().min(1).optional().describe("only the waits of this run"),
  cursor: z.string().min(1).max(64).optional().describe("nextCursor of the previous page"),
};

/** waits.list: the filters. */
export const waitListInput = z.object({
  ...commonQuery,
  mine: z.boolean().optional().describe("only the open waits the caller may answer"),
  limit: z.number().int().min(1).max(200).optional(),
});

/** GET /waits: the same filters as query parameters. */
export const waitListQuery = z.object({
  ...commonQuery,
  mine: z
    .enum(["true", "false"])
    .optional()
    .describe("true: only the open waits the caller may answer"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .optional()
    .describe("waits per page (50 when unset, at most 200)"),
});

export const waitListResponse = z.object({
  waits: z.array(waitListing),
  nextCursor: z.string().nullable().describe("pass as cursor for the next page; null on the last"),
});

const waitId = z.object({ id: z.string().min(1) });
export const answerWaitInput = z.union([
  decisionAnswerSchema.extend({ id: z.string().min(1) }),
  inputsAnswerSchema.extend({ id: z.string().min(1) }),
  waitMessageSchema.extend({ id: z.string().min(1) }),
  elicitationAnswerSchema.extend({ id: z.string().min(1) }),
]);

export const answerWaitResponse = z.object({
  wait: waitListing,
  resumed: z
    .boolean()
    .describe("true when the run, parked on this wait, was queued again to resume"),
});

const ANSWER_RULE =
  "the wait's own: its minimum role, its lane's startRoles, and not the run's starter when notStarter";

export const waitOperations = {
  list: operation({
    kind: "query",
    access: "team",
    input: waitListInput.optional(),
    output: waitListResponse,
    rest: {
      method: "GET",
      path: "/waits",
      summary:
        "The team's waits for a person's answer, newest first, a page at a time; mine=true: only the open ones the caller may answer",
      query: waitListQuery,
      toInput: (q) => ({ ...q, mine: q.mine === undefined ? undefined : q.mine === "true" }),
      status: 200,
      description: "A page of waits and the cursor of the next",
    },
  }),
  get: operation({
    kind: "query",
    access: "team",
    input: waitId,
    output: waitListing,
    rest: {
      method: "GET",
      path: "/waits/{id}",
      summary:
        "One wait: its question, what it waits on (a tool call's tool, scrubbed arguments, rule), its answer and who may answer",
      status: 200,
      description: "The wait",
    },
  }),
  answer: operation({
    kind: "mutation",
    access: "team",
    lane: ANSWER_RULE,
    input: answerWaitInput,
    output: answerWaitResponse,
    rest: {
      method: "POST",
      path: "/waits/{id}/answer",
      summary:
        "Answer an open wait: approve or deny a tool call (a denial's message reaches the agent), fill in the inputs of an input wait, send a conversation's next message ({ message }; exit, quit or an empty one ends it), or answer a connector server's form ({ action: accept | decline | cancel, content }); a run parked on it is queued again to resume. An API token answers as its member",
      body: waitAnswerBody,
      status: 200,
      description: "The wait as answered",
      errors: {
        403: "The caller may not answer this wait (USER.WAIT.NOT_ALLOWED, saying which rule)",
        400: "An answer of the wrong shape for the wait's kind (a decision for a message wait, a message for a tool call), or inputs that fail the workflow's declaration (USER.INPUT.VALIDATION_FAILED naming inputs.<name>)",
        404: "No such wait in the team, or it was cancelled with its run",
        409: "Already answered (USER.WAIT.ALREADY_ANSWERED) or expired (USER.WAIT.EXPIRED)",
      },
    },
  }),
  count: operation({
    kind: "query",
    access: "team",
    output: z.object({ open: z.number().int().describe("open waits the caller may answer") }),
    rest: { only: "the navigation's badge; over REST, GET /waits?mine=true lists them" },
  }),
};
