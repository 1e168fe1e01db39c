/**
 * The step channel's wire format, version 1: JSON lines over a unix socket between the
 * proxy (inside the step sandbox) and the worker. The proxy opens with `hello` and its
 * one-time token; the worker answers `welcome` (with the values the proxy must scrub) or
 * `reject`; the proxy then says `ready` or `fatal`. After that: `call`/`cancel` from the
 * proxy and `result`/`error` back, and `record`/`span` pushed by the proxy as they happen.
 * In a replay the worker answers every call (built-ins too) from the recording; `live` tells
 * the proxy that a built-in with no recording left may run in the sandbox after all. `gate`
 * asks the worker before a built-in runs that it must allow first (held for a person's
 * approval, counted against a budget): `proceed`, or `error` with the refusal.
 * A worker whose welcome says `acks` answers each `record` that carries an `ack` number
 * with `stored` once the record is stored (or could not be), and the proxy holds the call's
 * result until then: no call the agent saw goes unrecorded when the worker dies.
 */
import { z } from "zod";
import { isErrorCode, type ErrorCode } from "../errors/error-codes";

/** The channel protocol version given in hello and welcome. */
export const STEP_CHANNEL_VERSION = 1;

const id = z.number().int().nonnegative();
const jsonObject = z.record(z.string(), z.unknown());

/** A message the proxy sends on the channel. */
export const proxyMessage = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("hello"),
    v: z.number().int(),
    token: z.string(),
    pid: z.number().int().optional(),
  }),
  z.object({ type: z.literal("ready"), tools: z.array(z.string()) }),
  z.object({
    type: z.literal("fatal"),
    // A code this build does not know still ends the step, as a startup failure.
    code: z
      .string()
      .transform((code): ErrorCode => (isErrorCode(code) ? code : "SYSTEM.MCP_PROXY.STARTUP")),
    message: z.string(),
  }),
  z.object({
    type: z.literal("call"),
    id,
    tool: z.string(),
    arguments: jsonObject,
    trace_id: z.string().optional(),
    span_id: z.string().optional(),
  }),
  // Asks before a built-in runs that the worker must allow first (a rule holds it for
  // approval, a budget counts it); answered `proceed` or `error`, cancelled like a call.
  z.object({ type: z.literal("gate"), id, tool: z.string(), arguments: jsonObject }),
  z.object({ type: z.literal("cancel"), id }),
  z.object({ type: z.literal("record"), record: jsonObject, ack: id.optional() }),
  z.object({ type: z.literal("span"), span: jsonObject }),
]);
export type ProxyMessage = z.infer<typeof proxyMessage>;

/** A message the worker sends on the channel. */
export const hostMessage = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("welcome"),
    v: z.number().int(),
    secrets: z.array(z.string()),
    acks: z.boolean().optional(),
  }),
  z.object({ type: z.literal("reject"), message: z.string() }),
  z.object({ type: z.literal("result"), id, result: jsonObject }),
  z.object({ type: z.literal("error"), id, code: z.string(), message: z.string() }),
  z.object({ type: z.literal("live"), id }),
  z.object({ type: z.literal("proceed"), id }),
  z.object({ type: z.literal("stored"), ack: id }),
]);
export type HostMessage = z.infer<typeof hostMessage>;
