/**
 * The variables a run can read: every name its `env` declares plus every `env.NAME` a
 * template or condition reads, resolved once through the variables port. Secret values
 * join the run's scrubber; `env` entries with a value (a literal or a template) override.
 */
import type { Scrubber } from "../../secrets/scrubber";
import type { EvalEnv } from "../expression/evaluate-expression";
import type { VariablesPort } from "../model/engine-ports";
import { envNamesOf } from "../parse/env-names";
import { renderTemplate } from "../expression/template";
import type { Workflow } from "../model/workflow-types";

export const resolveRunEnv = async (
  workflow: Workflow,
  variables: VariablesPort | undefined,
  scrubber: Scrubber,
  scopeOf: (env: Record<string, string>) => EvalEnv,
): Promise<Record<string, string>> => {
  const names = envNamesOf(workflow);
  const resolved = variables ? await variables.resolve(names) : { values: {}, secrets: [] };
  for (const s of resolved.secrets) scrubber.add(s);
  const env: Record<string, string> = { ...resolved.values };
  for (const e of workflow.env) {
    if (e.value !== undefined) env[e.name] = renderTemplate(e.value, scopeOf(env));
  }
  return env;
};
