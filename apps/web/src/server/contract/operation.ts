/**
 * One API operation as the contract declares it, once: its input and output schemas, who
 * may call it (access and least role), the lane rule where one decides, and its REST
 * method, path and OpenAPI text. The tRPC procedure, the REST route and the OpenAPI
 * document are derived from it (server/api/), so the two surfaces cannot drift apart.
 */
import type { z } from "zod";
import type { Role } from "@switchyard/core/policy";

/** How an operation answers over REST, and what the OpenAPI document says of it. */
export type RestSpec = {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** the OpenAPI path, `{name}` for a path parameter, which fills the input field of that name */
  path: string;
  summary: string;
  status: number;
  description: string;
  /** input fields a path parameter fills when their names differ: `{ id: "workflowId" }` */
  params?: Record<string, string>;
  /** path parameters that are not plain strings (a version's number), parsed so an error names the parameter */
  pathSchema?: z.ZodObject;
  /** the part of the input the JSON body carries, parsed on its own so an error names the body's field */
  body?: z.ZodType;
  /** the part of the input the query string carries: an object schema whose fields are each a string in the URL */
  query?: z.ZodObject<Record<string, z.ZodType>>;
  /** the operation's input from the request's fields, when they are named otherwise (`tz` for `timeZone`) */
  toInput?: (fromRequest: Record<string, unknown>) => unknown;
  /** a repeated query parameter (`status=a&status=b`) is joined with commas; the last one counts when unset */
  joinRepeated?: boolean;
  /** the REST answer is `{ [wrap]: output }` (a list the dashboard reads bare) */
  wrap?: string;
  /** the REST answer from the output, when it shows less than the dashboard reads (applied before `wrap`) */
  toAnswer?: (output: never) => unknown;
  /** the REST answer's shape when it is not the output's (or its wrap) */
  response?: z.ZodType;
  /** other success statuses, answered with the same response, with what they mean (a replayed start's 200) */
  otherSuccess?: Record<number, string>;
  /** statuses this operation answers besides the common ones, with what they mean */
  errors?: Record<number, string>;
  /** bytes the request body may have (BODY_LIMITS.default when unset) */
  bodyLimit?: number;
  /** the success answer's media type when it is not JSON (an event stream, NDJSON): the response then describes one message or line */
  mediaType?: string;
};

/** Why an operation is on one surface only (a dashboard-only query, a stream, a sign-up page's step). */
export type OneSurface = { only: string };

export type OperationSpec = {
  kind: "query" | "mutation";
  /** public: anyone; authed: a signed-in user or a token; team: acts in one team as one member */
  access: "public" | "authed" | "team";
  /** the least team role the operation needs, checked before it runs (finer rules stay in the operation) */
  role?: Role;
  /** the lane rule that decides, where one does, in words */
  lane?: string;
  input?: z.ZodType;
  output: z.ZodType;
  /** the REST binding, or why there is none (the dashboard's own query, say) */
  rest: RestSpec | OneSurface;
  /** set on a REST-only operation (a stream, say), with why it is not a procedure */
  trpc?: OneSurface;
};

/** Declares one operation; the identity, kept for the literal types the surfaces derive from. */
export const operation = <const S extends OperationSpec>(spec: S): S => spec;
