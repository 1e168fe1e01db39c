/**
 * How many answers of the model a request's conversation already holds, in each API's own
 * shape: what a script played per conversation (rather than per server) goes by.
 */
import { asArray, isObj } from "./api-adapter";
import type { ApiName } from "./script";

const roleCount = (list: unknown, role: string) =>
  asArray(list).filter((m) => isObj(m) && m.role === role).length;

/** Responses input items: a model answer is a run of assistant messages and function calls. */
const responsesReplies = (input: unknown) => {
  let count = 0;
  let inReply = false;
  for (const item of asArray(input)) {
    const fromModel =
      isObj(item) &&
      (item.role === "assistant" || item.type === "function_call" || item.type === "reasoning");
    if (fromModel && !inReply) count++;
    inReply = fromModel;
  }
  return count;
};

export const modelRepliesIn = (api: ApiName, body: unknown): number => {
  const b = isObj(body) ? body : {};
  switch (api) {
    case "anthropic":
    case "openai-chat":
      return roleCount(b.messages, "assistant");
    case "gemini":
      return roleCount(b.contents, "model");
    case "openai-responses":
      return responsesReplies(b.input);
  }
};
