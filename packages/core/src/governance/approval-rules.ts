/**
 * Which tool calls wait for a person's approval. A lane lists rules (Settings → Lanes); a
 * workflow's agent step may add its own (`mcp_proxy.approve`, a Switchyard extension) but
 * never remove the lane's: the step's rules are the lane's followed by the step's.
 *
 * A rule names a tool by pattern (`*` any run of characters, matched against the tool's
 * final name: `github_merge_*`, `*_delete_*`, `Bash`) and, for the built-ins, may narrow it:
 * `command` (a regular expression) for Bash, `outside` (a workspace path prefix) for Write and
 * Edit: a write outside it needs approval. A rule on a built-in holds only where the
 * built-ins go through the proxy.
 */
import { z } from "zod";
import { globMatches } from "./glob";

export const approvalRuleSchema = z
  .object({
    /** a tool name pattern: `*` matches any run of characters */
    tool: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[A-Za-z0-9_*-]+$/, "a tool pattern has letters, digits, _, - and *"),
    /** Bash only: a regular expression the command must match */
    command: z.string().min(1).max(500).optional(),
    /** Write/Edit only: a path prefix in the workspace; a write outside it needs approval */
    outside: z.string().min(1).max(500).optional(),
    /** who may approve: at least this role (member unless set) */
    min_role: z.enum(["member", "admin", "owner"]).optional(),
    /** four eyes: the person who started the run may not approve its calls */
    not_starter: z.boolean().optional(),
  })
  .strict();

export type ApprovalRule = z.infer<typeof approvalRuleSchema>;

/** Where a rule came from, shown to the person asked. */
type RuleOrigin = "lane" | "workflow";

export type SourcedRule = ApprovalRule & { origin: RuleOrigin };

const WRITERS = new Set(["Write", "Edit"]);
/** The proxy's built-ins (tools/builtin-tools.ts), named here so the web reads rules without the tools. */
const BUILTINS = new Set<string>(["Read", "Write", "Edit", "Bash", "Glob", "Grep"]);

/** What is wrong with a rule (null: nothing), for the API and the workflow's validation. */
export const ruleProblem = (rule: ApprovalRule): string | null => {
  if (rule.command !== undefined) {
    if (rule.tool !== "Bash") return `"command" narrows only the Bash rule, not "${rule.tool}"`;
    try {
      new RegExp(rule.command);
    } catch (error) {
      return `"command" is not a regular expression: ${(error as Error).message}`;
    }
  }
  if (rule.outside !== undefined && !WRITERS.has(rule.tool))
    return `"outside" narrows only Write and Edit rules, not "${rule.tool}"`;
  return null;
};

/** Whether a rule can match a built-in (so it needs the built-ins to go through the proxy). */
export const ruleOnBuiltins = (rule: ApprovalRule): boolean =>
  [...BUILTINS].some((name) => globMatches(rule.tool, name));

/** A workspace-relative path, normalised (no `.`, `..` resolved, no leading `./` or `/`). */
const normalisedPath = (p: string): string => {
  const parts: string[] = [];
  for (const part of p.replace(/\\/g, "/").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return parts.join("/");
};

const insidePrefix = (file: string, prefix: string): boolean => {
  const f = normalisedPath(file);
  const p = normalisedPath(prefix);
  return p === "" || f === p || f.startsWith(`${p}/`);
};

/** The call a rule is matched against: the tool's final name and its arguments. */
type RuleCall = { tool: string; arguments: Record<string, unknown> };

/**
 * The first rule this call falls under (it then waits for approval), or undefined. A
 * built-in is matched by its own name only; a narrowed rule (`command`, `outside`) matches
 * only when its condition holds. Paths are relative to the workspace (an absolute path is
 * taken as given, and so is outside any relative prefix unless it starts with it).
 */
export const approvalRuleFor = <R extends ApprovalRule>(
  rules: readonly R[],
  call: RuleCall,
): R | undefined =>
  rules.find((rule) => {
    if (!globMatches(rule.tool, call.tool)) return false;
    if (rule.command !== undefined) {
      const command = call.arguments.command;
      return typeof command === "string" && new RegExp(rule.command).test(command);
    }
    if (rule.outside !== undefined) {
      // Every path the call names must be inside (a tool reads one key and drops the other,
      // so checking one would let the other through); a call that names none is held.
      const files = [call.arguments.path, call.arguments.file_path].filter(
        (value) => value !== undefined,
      );
      return (
        files.length === 0 ||
        files.some((file) => typeof file !== "string" || !insidePrefix(file, rule.outside!))
      );
    }
    return true;
  });

/** One line describing a rule, for the person asked and the audit log. */
export const describeRule = (rule: ApprovalRule): string =>
  rule.command !== undefined
    ? `${rule.tool} whose command matches /${rule.command}/`
    : rule.outside !== undefined
      ? `${rule.tool} outside ${rule.outside}`
      : rule.tool;
