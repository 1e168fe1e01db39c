/**
 * The agent step's `options` as a gemini step reads them, with AWF's names: `model` (a
 * Gemini model, `gemini-…`; the workflow validator checks the prefix), `allowed_tools` (the
 * proxy's tools the step may use), `max_turns`, and `dangerously_skip_permissions` (AWF's
 * flag, which Gemini CLI spells `--approval-mode=yolo`). Booleans and numbers may arrive as
 * text from templates. Other options are not Gemini CLI's and are left alone.
 */
import { invalidOption, readNameList, readNumber } from "../option-values";

/** The model a step gets when it names none: an explicit model skips the CLI's routing call. */
export const GEMINI_DEFAULT_MODEL = "gemini-2.5-pro";

export type GeminiOptions = {
  model: string;
  allowedTools?: string[];
  maxTurns?: number;
  yolo: boolean;
};

const given = (raw: unknown) => raw !== undefined && raw !== null && raw !== "";

const readFlag = (raw: unknown, key: string): boolean => {
  if (!given(raw)) return false;
  if (raw === true || raw === "true") return true;
  if (raw === false || raw === "false") return false;
  throw invalidOption(key, `must be true or false, got ${JSON.stringify(raw)}`);
};

export const readGeminiOptions = (options: Record<string, unknown>): GeminiOptions => {
  const model = options.model;
  if (given(model) && (typeof model !== "string" || model.trim() === ""))
    throw invalidOption(
      "model",
      `must be a model name such as gemini-2.5-pro, got ${JSON.stringify(model)}`,
    );
  const allowedTools = readNameList(options, "allowed_tools");
  const maxTurns = readNumber(options, "max_turns", 1, 1000, true);
  return {
    model: typeof model === "string" && model.trim() !== "" ? model.trim() : GEMINI_DEFAULT_MODEL,
    ...(allowedTools === undefined ? {} : { allowedTools }),
    ...(maxTurns === undefined ? {} : { maxTurns }),
    yolo: readFlag(options.dangerously_skip_permissions, "dangerously_skip_permissions"),
  };
};
