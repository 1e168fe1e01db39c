/**
 * The agent step's `options` as an opencode step reads them, with AWF's names: `model` (the
 * model id the team's OpenAI endpoint knows; AWF's `openai/<model>` spelling is taken as
 * `<model>`), `allowed_tools` (the proxy's tools the step may use), and
 * `dangerously_skip_permissions` (OpenCode's `--auto`: it approves what is not denied; the
 * proxy's tools are allowed by name either way). Booleans arrive as text from templates.
 * Other options are not OpenCode's and are left alone.
 */
import { invalidOption, readNameList } from "../option-values";

/** The model a step gets when it names none. */
export const OPENCODE_DEFAULT_MODEL = "gpt-5";

export type OpencodeOptions = { model: string; allowedTools?: string[]; auto: boolean };

const isBlank = (raw: unknown) => raw === undefined || raw === null || raw === "";

export const readOpencodeOptions = (options: Record<string, unknown>): OpencodeOptions => {
  const { model, dangerously_skip_permissions: skip } = options;
  if (!isBlank(model) && (typeof model !== "string" || model.trim() === ""))
    throw invalidOption("model", `must be a model id such as gpt-5, got ${JSON.stringify(model)}`);
  if (!isBlank(skip) && ![true, false, "true", "false"].includes(skip as string))
    throw invalidOption(
      "dangerously_skip_permissions",
      `must be true or false, got ${JSON.stringify(skip)}`,
    );
  const allowedTools = readNameList(options, "allowed_tools");
  const named = typeof model === "string" ? model.trim().replace(/^openai\//, "") : "";
  return {
    model: named === "" ? OPENCODE_DEFAULT_MODEL : named,
    ...(allowedTools === undefined ? {} : { allowedTools }),
    auto: skip === true || skip === "true",
  };
};
