/**
 * Turns an agent step's activity into what its card shows: text pieces joined into
 * messages, the usage so far, retries, errors and the final answer (shown once, not also
 * as the last message), plus the formatting of tool results and cost.
 */
import type { z } from "zod";
import type { stepActivityResponse } from "~/server/contract/runs.types";

type ActivityEvent = z.output<typeof stepActivityResponse>["events"][number]["event"];
type RetryEvent = Extract<ActivityEvent, { type: "retry" }>;

export type Transcript = {
  messages: string[];
  usage: { inputTokens: number; outputTokens: number; estimated: boolean } | null;
  retries: Omit<RetryEvent, "type">[];
  errors: { code: string; message: string }[];
  final: string | null;
};

export const foldAgentEvents = (events: readonly { event: ActivityEvent }[]): Transcript => {
  const t: Transcript = { messages: [], usage: null, retries: [], errors: [], final: null };
  let open = false;
  for (const { event } of events) {
    if (event.type !== "text") open = false;
    switch (event.type) {
      case "text":
        if (open) t.messages[t.messages.length - 1] += event.text;
        else t.messages.push(event.text);
        open = true;
        break;
      case "usage": {
        const u = t.usage ?? { inputTokens: 0, outputTokens: 0, estimated: false };
        t.usage = {
          inputTokens: u.inputTokens + event.inputTokens,
          outputTokens: u.outputTokens + event.outputTokens,
          estimated: u.estimated || event.estimated,
        };
        break;
      }
      case "retry": {
        const { type: _, ...notice } = event;
        t.retries.push(notice);
        break;
      }
      case "error":
        t.errors.push({ code: event.code, message: event.message });
        break;
      case "final":
        t.final = event.text;
        break;
      default: {
        const never: never = event;
        return never;
      }
    }
  }
  if (t.final !== null && t.messages.at(-1)?.trim() === t.final.trim()) t.messages.pop();
  return t;
};

const SUMMARY_LENGTH = 200;

/** The first line of a tool result's text (an MCP `content` list), to show beside a failed call. */
export const toolErrorSummary = (result: unknown): string | null => {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return null;
  const text = content.find(
    (c): c is { type: "text"; text: string } =>
      (c as { type?: unknown })?.type === "text" &&
      typeof (c as { text?: unknown }).text === "string",
  );
  if (!text) return null;
  const line = text.text.trim().split("\n")[0] ?? "";
  return line.length > SUMMARY_LENGTH ? `${line.slice(0, SUMMARY_LENGTH)}…` : line;
};

/** Pretty JSON, cut at `limit` characters. */
export const jsonPreview = (value: unknown, limit: number) => {
  const text = JSON.stringify(value ?? null, null, 2);
  return text.length > limit ? { text: text.slice(0, limit), cut: true } : { text, cut: false };
};

export const formatCost = (usd: number | null) => (usd === null ? "–" : `$${usd.toFixed(4)}`);
