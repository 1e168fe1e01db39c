/**
 * Checks one approval rule as a person wrote it (the API's body, a workflow's
 * `mcp_proxy.approve` entry, a lane's stored rules): the rule's shape (approvalRuleSchema)
 * and what only makes sense together (ruleProblem), each problem named by its field, so the
 * API, the workflow reader and the worker report the same thing the same way.
 */
import { approvalRuleSchema, ruleProblem, type ApprovalRule } from "./approval-rules";

/** The rule's fields; a problem that is not a field's (an unknown key) names the key itself. */
const RULE_FIELDS = ["tool", "command", "outside", "min_role", "not_starter"] as const;

type RuleCheck =
  { ok: true; rule: ApprovalRule } | { ok: false; field: string | undefined; message: string };

export const checkApprovalRule = (value: unknown): RuleCheck => {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return {
      ok: false,
      field: undefined,
      message: "a rule is a mapping: { tool, command?, outside? }",
    };
  const unknown = Object.keys(value).find((k) => !(RULE_FIELDS as readonly string[]).includes(k));
  if (unknown !== undefined)
    return {
      ok: false,
      field: unknown,
      message: `unknown field "${unknown}": a rule has tool, command (Bash), outside (Write, Edit), min_role and not_starter`,
    };
  const parsed = approvalRuleSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = typeof issue?.path[0] === "string" ? issue.path[0] : undefined;
    const text =
      issue?.code === "invalid_type" &&
      (value as Record<string, unknown>)[field ?? ""] === undefined
        ? "is required"
        : (issue?.message ?? "is not valid");
    return { ok: false, field, message: `"${field ?? "rule"}": ${text}` };
  }
  const problem = ruleProblem(parsed.data);
  if (problem !== null)
    return {
      ok: false,
      field: problem.startsWith('"command"')
        ? "command"
        : problem.startsWith('"outside"')
          ? "outside"
          : "tool",
      message: problem,
    };
  return { ok: true, rule: parsed.data };
};
