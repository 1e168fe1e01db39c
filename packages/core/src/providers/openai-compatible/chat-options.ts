/**
 * The agent step's `options` as an openai_compatible step reads them (AWF's names): `model`
 * (required), `temperature`, `top_p`, `max_tokens`, `max_completion_tokens`, `response_format`,
 * `allowed_tools` and `max_turns`. Values rendered from templates arrive as strings, so
 * numbers may be numeric strings. `base_url` is checked by checkBaseUrl; `api_key` is never
 * read here (the key comes from the team's credential, as an argument).
 */
import { invalidOption as invalid, readNameList, readNumber as number } from "../option-values";

export type ChatOptions = {
  model: string;
  /** Request fields passed through as the endpoint names them. */
  sampling: Record<string, unknown>;
  /** Lower-cased names the step may use; undefined when the step does not restrict tools. */
  allowedTools?: Set<string>;
  maxTurns?: number;
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
  const names = readNameList(options, "allowed_tools");
  const allowedTools = names && new Set(names.map((n) => n.toLowerCase()));
  const maxTurns = number(options, "max_turns", 1, 1000, true);
  return {
    model: model.trim(),
    sampling,
    ...(allowedTools ? { allowedTools } : {}),
    ...(maxTurns === undefined ? {} : { maxTurns }),
  };
};
