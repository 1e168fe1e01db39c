/**
 * The agent step's `options` as a claude step reads them, with AWF's names and meanings:
 * `model`, `allowed_tools` (a list, or names separated by commas), `dangerously_skip_permissions`
 * (a boolean), and `max_turns` (as openai_compatible reads it). Values rendered from
 * templates arrive as strings, so booleans and numbers may be spelled as text. Other
 * options are not Claude's and are left alone, as AWF does.
 */
import { invalidOption, readNameList, readNumber } from "../option-values";

export type ClaudeOptions = {
  model?: string;
  /** Names as the step wrote them, trimmed; undefined when the step does not restrict tools. */
  allowedTools?: string[];
  skipPermissions: boolean;
  maxTurns?: number;
};

const absent = (value: unknown) => value === undefined || value === null || value === "";

const readBoolean = (options: Record<string, unknown>, key: string): boolean => {
  const raw = options[key];
  if (absent(raw)) return false;
  if (typeof raw === "boolean") return raw;
  if (raw === "true" || raw === "false") return raw === "true";
  throw invalidOption(key, `must be true or false, got ${JSON.stringify(raw)}`);
};

const readModel = (options: Record<string, unknown>): string | undefined => {
  const raw = options.model;
  if (absent(raw)) return undefined;
  if (typeof raw !== "string" || raw.trim() === "")
    throw invalidOption("model", `must be a model name such as sonnet, got ${JSON.stringify(raw)}`);
  return raw.trim();
};

export const readClaudeOptions = (options: Record<string, unknown>): ClaudeOptions => {
  const model = readModel(options);
  const allowedTools = readNameList(options, "allowed_tools");
  const maxTurns = readNumber(options, "max_turns", 1, 1000, true);
  return {
    ...(model === undefined ? {} : { model }),
    ...(allowedTools === undefined ? {} : { allowedTools }),
    skipPermissions: readBoolean(options, "dangerously_skip_permissions"),
    ...(maxTurns === undefined ? {} : { maxTurns }),
  };
};
