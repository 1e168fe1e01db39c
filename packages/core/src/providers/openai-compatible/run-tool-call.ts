/**
 * One tool call the model asked for, run through the step's proxy and turned into the text
 * the model gets back. Whatever is wrong with the call (a tool not offered, arguments that
 * are not a JSON object, `call_tool` aimed past `allowed_tools`) or with the tool (an
 * `isError` result, a thrown error) becomes that text, and the model decides what to do
 * next. Only the step's end (cancelled, timed out) ends a call otherwise.
 */
import { abortReason } from "./retry-after";
import { toolResultText, type ToolProxy } from "./tool-proxy";

export type ParsedArguments = { value: unknown; error?: string };
export type ToolCallOutcome = { isError: boolean; text: string };

export type ToolCallContext = {
  tools: ToolProxy;
  /** The names offered to the model this turn. */
  offered: ReadonlySet<string>;
  /** Lower-cased names `allowed_tools` permits, when the step restricts tools. */
  allowedTools?: ReadonlySet<string>;
  signal: AbortSignal;
  /** The request's `params._meta` (the `traceparent` of the call's span). */
  meta?: Record<string, string>;
};

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The model's argument text as JSON; empty text is `{}` (tools without parameters). */
export const parseToolArguments = (raw: string): ParsedArguments => {
  if (raw.trim() === "") return { value: {} };
  try {
    return { value: JSON.parse(raw) as unknown };
  } catch (error) {
    return { value: raw, error: (error as Error).message };
  }
};

export const runToolCall = async (
  context: ToolCallContext,
  name: string,
  parsed: ParsedArguments,
): Promise<ToolCallOutcome> => {
  if (!context.offered.has(name))
    return {
      isError: true,
      text: `Tool "${name}" is not available in this step. Available tools: ${[...context.offered].join(", ") || "none"}.`,
    };
  if (parsed.error !== undefined)
    return {
      isError: true,
      text: `The arguments for ${name} are not valid JSON (${parsed.error}). Call it again with a JSON object.`,
    };
  const args = parsed.value;
  if (!isObj(args))
    return { isError: true, text: `The arguments for ${name} must be a JSON object.` };
  const inner = name === "call_tool" ? args.name : undefined;
  if (
    context.allowedTools &&
    typeof inner === "string" &&
    !context.allowedTools.has(inner.toLowerCase())
  )
    return { isError: true, text: `Tool "${inner}" is not allowed in this step.` };
  try {
    const result = await context.tools.callTool(name, args, context.signal, context.meta);
    return { isError: result.isError === true, text: toolResultText(result) };
  } catch (error) {
    if (context.signal.aborted) throw abortReason(context.signal);
    return {
      isError: true,
      text: `Tool ${name} failed: ${(error as Error).message ?? String(error)}`,
    };
  }
};
