/**
 * The approval rules one agent step runs under: its lane's, then its own (`mcp_proxy.approve`),
 * so a workflow adds rules and never removes the lane's. A rule on a built-in holds only where
 * the built-ins go through the step's proxy; Switchyard serves every agent step's built-ins
 * through it (each provider's own tools are off, with or without `mcp_proxy.enable`), except
 * where the workflow says `intercept_builtins: false`. Such a step with a rule on built-ins is
 * refused: at save (the workflow's rules and its lane's as they are then), and at step start,
 * where the lane's rules may have changed since.
 */
import { AppError } from "../errors/app-error";
import {
  ruleOnBuiltins,
  describeRule,
  type ApprovalRule,
  type SourcedRule,
} from "./approval-rules";
import { checkApprovalRule } from "./check-rule";

/** What of an agent step decides its rules: its name (for the error) and its `mcp_proxy` block. */
type RuledStep = {
  name?: string;
  mcpProxy?: { interceptBuiltins: boolean; approve?: readonly ApprovalRule[] };
};

/** Whether the step's built-ins go through its proxy (where rules on built-ins can hold). */
const builtinsIntercepted = (step: RuledStep): boolean =>
  step.mcpProxy?.interceptBuiltins !== false;

const stepPath = (step: RuledStep) => (step.name ? `states.${step.name}.mcp_proxy` : "mcp_proxy");

const named = (step: RuledStep) => (step.name ? `step "${step.name}"` : "the step");

/**
 * The step's rules, the lane's first (origin "lane"), or the error that refuses the step: a
 * lane rule no longer valid (USER.APPROVAL.RULE_INVALID), or a rule on built-ins the step's
 * `intercept_builtins: false` leaves to the CLI (USER.APPROVAL.BUILTINS_NOT_INTERCEPTED),
 * naming the step, the rule and where it comes from.
 */
export const stepApprovalRules = (
  laneRules: readonly unknown[],
  step: RuledStep,
): { rules: SourcedRule[] } | { error: AppError } => {
  const rules: SourcedRule[] = [];
  for (const [i, value] of laneRules.entries()) {
    const checked = checkApprovalRule(value);
    if (!checked.ok)
      return {
        error: new AppError(
          "USER.APPROVAL.RULE_INVALID",
          `the lane's approval rule ${i + 1} is not valid: ${checked.message}`,
          { location: { path: `approvalRules[${i}]${checked.field ? `.${checked.field}` : ""}` } },
        ),
      };
    rules.push({ ...checked.rule, origin: "lane" });
  }
  for (const rule of step.mcpProxy?.approve ?? []) rules.push({ ...rule, origin: "workflow" });
  if (builtinsIntercepted(step)) return { rules };
  const onBuiltins = rules.find(ruleOnBuiltins);
  if (!onBuiltins) return { rules };
  const at = rules.indexOf(onBuiltins);
  const index = onBuiltins.origin === "lane" ? at : at - laneRules.length;
  const from =
    onBuiltins.origin === "lane"
      ? `its lane's approval rule ${index + 1}`
      : `its approval rule ${index + 1} (mcp_proxy.approve[${index}])`;
  return {
    error: new AppError(
      "USER.APPROVAL.BUILTINS_NOT_INTERCEPTED",
      `${named(step)} says intercept_builtins: false, so its built-in tools do not go through the proxy, but ${from} ("${describeRule(onBuiltins)}") holds calls of a built-in: let the proxy serve the built-ins or drop the rule`,
      {
        location: {
          path:
            onBuiltins.origin === "lane"
              ? `${stepPath(step)}.intercept_builtins`
              : `${stepPath(step)}.approve[${index}].tool`,
        },
        details: { step: step.name, rule: onBuiltins, origin: onBuiltins.origin },
      },
    ),
  };
};
