/**
 * The agent step's `options` as an openai_compatible step reads them (AWF's names): `model`
 * (required), `temperature`, `top_p`, `max_tokens`, `max_completion_tokens`, `response_format`,
 * `allowed_tools` and `max_turns`. Values rendered from templates arrive as strings, so
 * numbers may be numeric strings. `base_url` is checked by checkBaseUrl; `api_key` is never
 * read here (the key comes from the team's credential, as an argument).
 */
import { AppError } from "../../errors/app-error";

export type ChatOptions = {
  model: string;
  /** Request fields passed through as the endpoint names them. */
  sampling: Record<string, unknown>;
  /** Lower-cased names the step may use; undefined when the step does not restrict tools. */
  allowedTools?: Set<string>;
  maxTurns?: number;
};

const invalid = (key: string, message: string) =>
  new AppError("USER.INPUT.VALIDATION_FAILED", `options.${key} ${message}`, {
    location: { path: `options.${key}` },
  });

const number = (
  options: Record<string, unknown>,
  key: string,
  min: number,
  max: number,
  integer = false,
) => {
  const raw = options[key];
  if (raw === undefined || raw === null || raw === "") return undefined;
  const value = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  )
    throw invalid(
      key,
      `must be ${integer ? "an integer" : "a number"} from ${min} to ${max}, got ${JSON.stringify(raw)}`,
    );
  return value;
};

const toolNames = (raw: unknown): Set<string> | undefined => {
  if (raw === undefined || raw === null) return undefined;
  const list =
    typeof raw === "string"
      ? raw.split(",")
      : Array.isArray(raw) && raw.every((v) => typeof v === "string")
        ? raw
        : undefined;
  if (!list)
    throw invalid(
      "allowed_tools",
      'must be a list of tool names or a comma-separated text ("Read,Grep")',
    );
  return new Set(list.map((n) => n.trim().toLowerCase()).filter((n) => n !== ""));
};

export const readChatOptions = (options: Record<string, unknown>): ChatOptions => {
  const model = options.model;
  if (typeof model !== "string" || model.trim() === "")
    throw invalid("model", "is required for openai_compatible (the endpoint's model name)");
  const sampling: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    if (value !== undefined) sampling[key] = value;
  };
  put("temperature", number(options, "temperature", 0, 2));
  put("top_p", number(options, "top_p", 0, 1));
  put("max_tokens", number(options, "max_tokens", 1, 10_000_000, true));
  put("max_completion_tokens", number(options, "max_completion_tokens", 1, 10_000_000, true));
  const format = options.response_format;
  if (
    format !== undefined &&
    (typeof format !== "object" || format === null || Array.isArray(format))
  )
    throw invalid("response_format", 'must be a mapping such as {type: "json_object"}');
  put("response_format", format);
  const allowedTools = toolNames(options.allowed_tools);
  const maxTurns = number(options, "max_turns", 1, 1000, true);
  return {
    model: model.trim(),
    sampling,
    ...(allowedTools ? { allowedTools } : {}),
    ...(maxTurns === undefined ? {} : { maxTurns }),
  };
};
