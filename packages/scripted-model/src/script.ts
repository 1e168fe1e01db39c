/**
 * The script a scripted model plays: model turns answered in order, and rules that answer
 * requests which are not turns (title requests, token counts, probes) without consuming one.
 * Validated strictly, so a misspelt key fails at load time instead of silently doing nothing.
 */
import { readFile } from "node:fs/promises";
import { AppError } from "@switchyard/core/errors";
import { z } from "zod";

export const API_NAMES = ["anthropic", "openai-chat", "openai-responses", "gemini"] as const;
export type ApiName = (typeof API_NAMES)[number];

const stringList = z.union([z.string(), z.array(z.string())]);

const regex = z
  .string()
  .min(1)
  .refine((source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  }, "not a valid regular expression");

/** A tool name exactly as the model sees it, or a suffix or regex matched against the offered tools. */
const toolName = z.union([
  z.string().min(1),
  z.strictObject({ suffix: z.string().min(1) }),
  z.strictObject({ regex }),
]);

const toolCall = z.strictObject({
  name: toolName,
  arguments: z.record(z.string(), z.unknown()).default({}),
  id: z.string().min(1).optional(),
});

const usage = z.strictObject({
  inputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative().optional(),
});

const httpError = z.strictObject({
  status: z.number().int().min(400).max(599),
  headers: z.record(z.string(), z.string()).default({}),
  /** Sent as JSON; default: the API's own error envelope with `message`. */
  body: z.unknown().optional(),
  message: z.string().optional(),
});

/** What the request must carry for the turn to be played. */
const expectation = z.strictObject({
  toolOffered: stringList.optional(),
  toolNotOffered: stringList.optional(),
  systemContains: z.string().optional(),
  lastToolResultContains: z.string().optional(),
  messagesContain: z.string().optional(),
  model: z.string().optional(),
});

const replyFields = {
  text: z.string().optional(),
  toolCalls: z.array(toolCall).optional(),
  error: httpError.optional(),
  delayMs: z.number().int().nonnegative().max(600_000).optional(),
  usage: usage.optional(),
};

const checkReply = (
  value: { text?: string | undefined; toolCalls?: unknown[] | undefined; error?: unknown },
  ctx: z.RefinementCtx,
) => {
  if (value.error !== undefined && (value.text !== undefined || value.toolCalls !== undefined))
    ctx.addIssue({ code: "custom", message: "an error turn cannot also have text or toolCalls" });
  if (value.error === undefined && value.text === undefined && !value.toolCalls?.length)
    ctx.addIssue({ code: "custom", message: "needs text, toolCalls or error" });
};

const turn = z
  .strictObject({ ...replyFields, label: z.string().optional(), expect: expectation.optional() })
  .superRefine(checkReply);

const ruleMatch = z
  .strictObject({
    /** true: the request offers no tools; false: it offers some. */
    noTools: z.boolean().optional(),
    api: z.enum(API_NAMES).optional(),
    method: z.string().optional(),
    /** The URL path without the query, exactly. */
    path: z.string().optional(),
    pathRegex: regex.optional(),
    systemContains: z.string().optional(),
    messagesContain: z.string().optional(),
  })
  .refine((m) => Object.keys(m).length > 0, "a rule needs at least one condition");

const rule = z
  .strictObject({
    match: ruleMatch,
    ...replyFields,
    /** A raw JSON answer (for endpoints that are not model turns), with `status` (default 200). */
    json: z.unknown().optional(),
    status: z.number().int().min(100).max(599).optional(),
    /** How many requests the rule may answer; unlimited when absent. */
    times: z.number().int().positive().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.json === undefined) checkReply(value, ctx);
    else if (value.text !== undefined || value.toolCalls !== undefined || value.error !== undefined)
      ctx.addIssue({
        code: "custom",
        message: "a json rule cannot also have text, toolCalls or error",
      });
  });

const scriptObject = z.strictObject({
  turns: z.array(turn),
  rules: z.array(rule).default([]),
  /** Usage reported when a turn gives none; default: estimated from the sizes. */
  usage: usage.optional(),
});

/** A script is an object, or just the list of its turns. */
export const scriptSchema = scriptObject;

export type Script = z.output<typeof scriptObject>;
export type ScriptInput = z.input<typeof scriptObject> | z.input<typeof turn>[];
export type Turn = z.output<typeof turn>;
export type Rule = z.output<typeof rule>;
export type RuleMatch = z.output<typeof ruleMatch>;
export type Expectation = z.output<typeof expectation>;
export type ScriptToolCall = z.output<typeof toolCall>;
export type ToolNameSpec = z.output<typeof toolName>;
export type Usage = z.output<typeof usage>;
export type ReplySpec = Pick<Turn, "text" | "toolCalls" | "error" | "delayMs" | "usage">;

/** Parses a script object; `where` names its origin (a file) in the error. */
export const parseScript = (input: unknown, where = "script"): Script => {
  const parsed = scriptObject.safeParse(Array.isArray(input) ? { turns: input } : input);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues
    .map((i) => `${i.path.length ? i.path.join(".") : "(top)"}: ${i.message}`)
    .join("; ");
  const first = parsed.error.issues[0]?.path.join(".");
  throw new AppError("USER.INPUT.VALIDATION_FAILED", `${where}: invalid model script: ${detail}`, {
    location: { file: where, ...(first ? { path: first } : {}) },
  });
};

export const loadScript = async (file: string): Promise<Script> => {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    throw new AppError("USER.INPUT.MISSING_FILE", `${file}: cannot read the model script`, {
      cause,
      location: { file },
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `${file}: the model script is not JSON: ${(cause as Error).message}`,
      { cause, location: { file } },
    );
  }
  return parseScript(json, file);
};
