/**
 * The variable names a workflow reads: every name its `env` declares plus every `env.NAME`
 * a state, hook or `env` value reads. The engine resolves these at run start, and the lane
 * policy checks the secrets among them at save and start.
 */
import type { Workflow } from "../model/workflow-types";

export const envNamesOf = (workflow: Workflow): string[] => {
  const referenced = JSON.stringify({
    states: [...workflow.states.values()],
    hooks: workflow.hooks,
    env: workflow.env,
  }).matchAll(/\benv\.([A-Za-z_][A-Za-z0-9_]*)/g);
  return [...new Set([...workflow.env.map((e) => e.name), ...[...referenced].map((m) => m[1]!)])];
};
