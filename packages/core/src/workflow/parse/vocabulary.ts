/**
 * The words of the workflow language: the keys each part of a document accepts and the
 * keys whose values name states. The readers check documents against these lists and the
 * editor completes from them, so what the editor offers is exactly what the reader takes.
 * Nothing here imports the YAML parser, so the browser bundle stays small.
 */
export const TOP_LEVEL_KEYS = [
  "name",
  "description",
  "version",
  "author",
  "tags",
  "inputs",
  "outputs",
  "env",
  "states",
  "hooks",
  "lane",
] as const;

export const WORKFLOW_HOOK_KEYS = [
  "workflow_start",
  "workflow_end",
  "workflow_error",
  "workflow_cancel",
] as const;

export const STATE_TYPES = [
  "step",
  "agent",
  "terminal",
  "parallel",
  "for_each",
  "while",
  "call_workflow",
  "operation",
] as const;
type StateType = (typeof STATE_TYPES)[number];

export const PROVIDERS = ["claude", "codex", "gemini", "opencode", "openai_compatible"] as const;

/** Keys every executable state (all but terminal) accepts. */
const COMMON_STATE_KEYS = [
  "type",
  "description",
  "on_success",
  "on_failure",
  "transitions",
  "continue_on_error",
  "timeout",
  "retry",
  "capture",
  "hooks",
  "pre_hook",
  "post_hook",
] as const;

/** Loop settings, at the state or under its `loop:` mapping. */
const LOOP_KEYS = ["body", "max_iterations", "break_when", "on_complete", "loop"] as const;
export const LOOP_FORM_KEYS = [
  "over",
  "items",
  "while",
  "body",
  "max_iterations",
  "break_when",
  "on_complete",
] as const;
export const CALL_WORKFLOW_FORM_KEYS = ["workflow", "inputs", "outputs", "timeout"] as const;

/** The keys each state type accepts. */
export const STATE_KEYS = {
  step: [...COMMON_STATE_KEYS, "command", "script_file", "dir"],
  agent: [
    ...COMMON_STATE_KEYS,
    "provider",
    "prompt",
    "prompt_file",
    "system_prompt",
    "role",
    "options",
    "output_format",
    "mode",
    "mcp_proxy",
    "tool_timeout",
    "budget",
    "skills",
    "conversation",
  ],
  terminal: ["type", "status", "message", "description"],
  parallel: [...COMMON_STATE_KEYS, "parallel", "strategy", "max_concurrent"],
  for_each: [...COMMON_STATE_KEYS, ...LOOP_KEYS, "items"],
  while: [...COMMON_STATE_KEYS, ...LOOP_KEYS, "while"],
  call_workflow: [...COMMON_STATE_KEYS, "call_workflow", "workflow", "inputs", "outputs"],
  operation: [...COMMON_STATE_KEYS, "operation", "inputs"],
} as const satisfies Record<StateType, readonly string[]>;

export const RETRY_KEYS = [
  "max_attempts",
  "initial_delay",
  "max_delay",
  "backoff",
  "multiplier",
  "jitter",
  "retryable_exit_codes",
] as const;
export const TRANSITION_KEYS = ["when", "goto"] as const;
export const CAPTURE_KEYS = ["stdout", "stderr", "max_size"] as const;
export const HOOK_ACTION_KEYS = ["command", "log", "timeout"] as const;
export const STEP_HOOK_KEYS = ["pre", "post"] as const;
export const INLINE_ERROR_KEYS = ["message", "status"] as const;

export const INPUT_KEYS = [
  "name",
  "type",
  "required",
  "default",
  "description",
  "validation",
] as const;
export const INPUT_TYPES = ["string", "integer", "number", "boolean", "array"] as const;
export const INPUT_VALIDATION_KEYS = [
  "pattern",
  "enum",
  "min",
  "max",
  "file_exists",
  "file_extension",
] as const;
export const OUTPUT_KEYS = ["name", "from", "description"] as const;

export const MCP_PROXY_KEYS = [
  "enable",
  "intercept_builtins",
  "plugin_tools",
  "connectors",
  "initial_tools",
  "tool_search",
  "approve",
] as const;

/** An agent step's `budget` block (a Switchyard extension, docs/governance.md). */
export const BUDGET_KEYS = ["cost_usd", "tokens", "calls"] as const;
/** The keys of one rule under `mcp_proxy.approve` (a Switchyard extension). */
export const APPROVE_RULE_KEYS = ["tool", "command", "outside", "min_role", "not_starter"] as const;

/** Keys whose value is a state's name (or, for parallel and body, a list of them). */
export const STATE_REFERENCE_KEYS = [
  "initial",
  "on_success",
  "on_failure",
  "goto",
  "on_complete",
  "parallel",
  "body",
] as const;

/** Values a key accepts from a fixed set, for completion. */
export const KEY_VALUES: Record<string, readonly string[]> = {
  type: STATE_TYPES,
  strategy: ["all_succeed", "any_succeed", "best_effort"],
  backoff: ["constant", "linear", "exponential"],
  output_format: ["json", "text"],
  mode: ["single"],
  provider: PROVIDERS,
  status: ["success", "failure"],
};

const isStateType = (t: string | undefined): t is StateType =>
  t !== undefined && (STATE_TYPES as readonly string[]).includes(t);

/**
 * The keys a mapping accepts, by its path in the document: `[]` is the top level,
 * `["states", "build"]` a state (its `type` decides), `"#"` stands for a list item, as in
 * `["inputs", "#", "validation"]`. Unknown places offer nothing.
 */
export const completionKeys = (path: readonly string[], stateType?: string): readonly string[] => {
  const [head, second, third, fourth, fifth] = path;
  if (head === undefined) return TOP_LEVEL_KEYS;
  if (head === "inputs" && second === "#")
    return third === undefined
      ? INPUT_KEYS
      : third === "validation" && fourth === undefined
        ? INPUT_VALIDATION_KEYS
        : [];
  if (head === "outputs" && second === "#" && third === undefined) return OUTPUT_KEYS;
  if (head === "hooks") {
    if (second === undefined) return WORKFLOW_HOOK_KEYS;
    return (third === undefined || third === "#") && fourth === undefined ? HOOK_ACTION_KEYS : [];
  }
  if (head !== "states") return [];
  if (second === undefined) return ["initial"];
  if (third === undefined) {
    if (isStateType(stateType)) return STATE_KEYS[stateType];
    return [...new Set(STATE_TYPES.flatMap((t) => STATE_KEYS[t]))];
  }
  if (third === "hooks") {
    if (fourth === undefined) return STEP_HOOK_KEYS;
    return (fifth === undefined || fifth === "#") && path[5] === undefined ? HOOK_ACTION_KEYS : [];
  }
  if (third === "mcp_proxy" && fourth === "approve")
    return fifth === "#" && path[5] === undefined ? APPROVE_RULE_KEYS : [];
  const nested = fourth === "#" ? fifth : fourth;
  if (nested !== undefined) return [];
  switch (third) {
    case "retry":
      return RETRY_KEYS;
    case "capture":
      return CAPTURE_KEYS;
    case "transitions":
      return fourth === "#" ? TRANSITION_KEYS : [];
    case "pre_hook":
    case "post_hook":
      return HOOK_ACTION_KEYS;
    case "on_failure":
      return INLINE_ERROR_KEYS;
    case "loop":
      return LOOP_FORM_KEYS;
    case "call_workflow":
      return CALL_WORKFLOW_FORM_KEYS;
    case "mcp_proxy":
      return MCP_PROXY_KEYS;
    case "budget":
      return BUDGET_KEYS;
    default:
      return [];
  }
};
