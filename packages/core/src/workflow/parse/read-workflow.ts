/**
 * Reads the top level of a workflow document (metadata, inputs, outputs, env, hooks,
 * states) into the Workflow shape, reporting every problem to the diagnostics.
 */
import { isMap, isScalar } from "yaml";
import { readHookActions } from "./read-common-fields";
import { readInputs, readOutputs } from "./read-inputs";
import { readState } from "./read-state";
import type { State, Workflow } from "../model/workflow-types";
import { TOP_LEVEL_KEYS, WORKFLOW_HOOK_KEYS } from "./vocabulary";
import { codes, report, sourceOf, type YamlReader } from "./yaml-reader";

const TOP_UNSUPPORTED: Record<string, string> = {
  skills: "agent skills",
};

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `env` is a list of names to resolve, or a mapping of names to values (templates allowed). */
const readEnv = (root: YamlReader): Workflow["env"] => {
  const out: Workflow["env"] = [];
  const raw = root.raw("env");
  if (raw === undefined) return out;
  if (isMap(raw)) {
    const m = root.map("env")!;
    for (const name of m.keys()) {
      if (!ENV_NAME.test(name))
        m.error(codes.invalid, `"${name}" is not a valid variable name`, name);
      else out.push({ name, value: m.str(name) });
    }
    return out;
  }
  for (const { node, path } of root.seq("env") ?? []) {
    const v: unknown = isScalar(node) ? node.value : undefined;
    if (typeof v === "string" && ENV_NAME.test(v)) out.push({ name: v });
    else
      report(
        root.diag,
        "error",
        codes.invalid,
        "must be a variable name",
        sourceOf(root.diag, node, path),
      );
  }
  return out;
};

export const readWorkflow = (root: YamlReader): Workflow | undefined => {
  root.checkKeys(TOP_LEVEL_KEYS, TOP_UNSUPPORTED);
  const name = root.str("name", true);
  const tags = root.strList("tags") ?? [];
  const hooksReader = root.map("hooks");
  hooksReader?.checkKeys(WORKFLOW_HOOK_KEYS);
  const hooks = {
    workflowStart: hooksReader ? readHookActions(hooksReader, "workflow_start") : [],
    workflowEnd: hooksReader ? readHookActions(hooksReader, "workflow_end") : [],
    workflowError: hooksReader ? readHookActions(hooksReader, "workflow_error") : [],
    workflowCancel: hooksReader ? readHookActions(hooksReader, "workflow_cancel") : [],
  };
  const inputs = readInputs(root);
  const outputs = readOutputs(root);
  const env = readEnv(root);
  const statesReader = root.map("states", true);
  if (!statesReader) return undefined;
  const initial = statesReader.str("initial", true);
  const states = new Map<string, State>();
  root.diag.declaredStates = new Set(statesReader.keys().filter((k) => k !== "initial"));
  for (const key of statesReader.keys()) {
    if (key === "initial" || root.diag.skipStates?.has(key)) continue;
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) {
      statesReader.error(
        codes.invalid,
        `state name "${key}" must start with a letter or _ and use letters, digits, _ or -`,
        key,
      );
    }
    const node = statesReader.raw(key);
    const reader = node ? statesReader.child(node, statesReader.at(key)) : undefined;
    if (!reader) continue;
    const state = readState(reader, key);
    if (state) states.set(key, state);
  }
  if (name === undefined || initial === undefined) return undefined;
  return {
    name,
    description: root.str("description") ?? "",
    version: root.str("version"),
    author: root.str("author"),
    tags,
    lane: root.str("lane"),
    file: root.diag.file,
    inputs,
    outputs,
    env,
    hooks,
    initial,
    states,
  };
};
