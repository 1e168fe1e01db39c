/**
 * The agent step's `options` as a codex step reads them, with AWF's names: `model` (checked
 * when the workflow is saved: gpt-*, codex-*, o-series) and `dangerously_skip_permissions`
 * (a boolean; text "true"/"false" from templates counts). Other options are not Codex's and
 * are left alone, as AWF does.
 */
import { invalidOption } from "../option-values";

export type CodexOptions = { model?: string; skipPermissions: boolean };

const absent = (value: unknown) => value === undefined || value === null || value === "";

export const readCodexOptions = (options: Record<string, unknown>): CodexOptions => {
  const { model, dangerously_skip_permissions: skip } = options;
  let skipPermissions = false;
  if (!absent(skip)) {
    if (skip !== true && skip !== false && skip !== "true" && skip !== "false")
      throw invalidOption(
        "dangerously_skip_permissions",
        `must be true or false, got ${JSON.stringify(skip)}`,
      );
    skipPermissions = skip === true || skip === "true";
  }
  if (absent(model)) return { skipPermissions };
  if (typeof model !== "string" || model.trim() === "")
    throw invalidOption(
      "model",
      `must be a model name such as gpt-5-codex, got ${JSON.stringify(model)}`,
    );
  return { model: model.trim(), skipPermissions };
};
