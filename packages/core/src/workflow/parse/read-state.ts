/**
 * Reads one entry of `states` by its `type`, accepting exactly the keys AWF documents
 * for that type and rejecting out-of-scope features by name.
 */
import { isMap, isScalar } from "yaml";
import { timeoutOrNone } from "./parse-duration";
import { UNSUPPORTED_STATE_KEYS, readCommon } from "./read-common-fields";
import { readBudget } from "./read-budget";
import { readMcpProxy } from "./read-mcp-proxy";
import { readOperation } from "./read-operation";
import { readSkills } from "./read-skills";
import { suggestName } from "./suggest-name";
import type { AgentState, LoopCommon, State } from "../model/workflow-types";
import {
  CALL_WORKFLOW_FORM_KEYS,
  LOOP_FORM_KEYS,
  PROVIDERS,
  STATE_KEYS,
  STATE_TYPES,
} from "./vocabulary";
import { codes, type YamlReader } from "./yaml-reader";

const AGENT_UNSUPPORTED: Record<string, string> = {
  ...UNSUPPORTED_STATE_KEYS,
  command: "the custom provider's `command` template",
};
/** The `conversation:` keys AWF removed in F083 (conversation-steps.md); silently ignoring them would mislead. */
const REMOVED_CONVERSATION_KEYS = [
  "max_turns",
  "max_context_tokens",
  "strategy",
  "stop_condition",
  "inject_context",
];

/** `conversation: {}` (track the step's session) or `conversation: {continue_from: <state>}`. */
const readConversation = (r: YamlReader, mode: string | undefined): AgentState["conversation"] => {
  if (!r.has("conversation")) return undefined;
  if (mode === "conversation") {
    // A chat keeps its session between its own turns; keeping it for another step is not built.
    r.error(
      codes.invalid,
      '"conversation" (session tracking) is not available on a mode: conversation step: a chat\'s session cannot be continued by another step yet',
      "conversation",
    );
    return undefined;
  }
  const node = r.raw("conversation");
  if (node === undefined || (isScalar(node) && node.value === null)) return {};
  const c = r.map("conversation");
  if (!c) return undefined;
  for (const key of c.keys())
    if (REMOVED_CONVERSATION_KEYS.includes(key))
      c.error(
        codes.unknownKey,
        `"${key}" was removed from "conversation" (AWF F083) and has no effect: remove it (conversation keeps only "continue_from")`,
        key,
      );
  c.checkKeys(["continue_from", ...REMOVED_CONVERSATION_KEYS]);
  const from = c.str("continue_from");
  if (from === undefined) return {};
  if (from.includes("{{")) {
    // AWF names the earlier step itself; a name known only at run time could never be checked.
    c.error(
      codes.invalid,
      '"continue_from" names a state of this workflow, not a template',
      "continue_from",
    );
    return {};
  }
  return { continueFrom: from, continueFromSource: c.where("continue_from") };
};

const OTHER_PROVIDERS: Record<string, string> = {
  custom: "the custom provider",
};
/** AWF providers whose CLI has no headless install here yet (docs/providers.md). */
const NOT_YET_PROVIDERS = ["github_copilot", "mistral_vibe"];

/** AWF's model checks for the providers it validates; others accept any model. */
const modelProblem = (provider: string, model: string): string | undefined => {
  switch (provider) {
    case "claude":
      return ["sonnet", "opus", "haiku"].includes(model) || model.startsWith("claude-")
        ? undefined
        : "a claude model is sonnet, opus, haiku or claude-*";
    case "gemini":
      return model.startsWith("gemini-") ? undefined : 'a gemini model must start with "gemini-"';
    case "codex":
      return /^(gpt-|codex-|o\d)/.test(model)
        ? undefined
        : 'a codex model starts with "gpt-", "codex-" or is an o-series model such as o3-mini';
    default:
      return undefined;
  }
};

const checkProvider = (
  r: YamlReader,
  provider: string | undefined,
  options: Record<string, unknown>,
) => {
  if (provider === undefined || provider.includes("{{")) return;
  if (NOT_YET_PROVIDERS.includes(provider))
    return r.error(
      codes.unsupportedProvider,
      `the ${provider} provider is not yet supported (supported: ${PROVIDERS.join(", ")})`,
      "provider",
    );
  const other = OTHER_PROVIDERS[provider];
  if (other)
    return r.error(
      codes.unsupported,
      `${other} is not supported (see docs/workflows.md)`,
      "provider",
    );
  if (!(PROVIDERS as readonly string[]).includes(provider)) {
    const hint = suggestName(provider, PROVIDERS);
    return r.error(
      codes.invalid,
      `unknown provider "${provider}" (one of ${PROVIDERS.join(", ")})${hint ? ` (did you mean "${hint}"?)` : ""}`,
      "provider",
    );
  }
  const model = options.model;
  if (typeof model === "string" && !model.includes("{{")) {
    const problem = modelProblem(provider, model);
    if (problem) r.map("options")?.error(codes.invalid, `${problem}, got "${model}"`, "model");
  }
};

/** The shortest `tool_timeout`: the CLIs take none below a second (Claude Code ignores it). */
const MIN_TOOL_TIMEOUT_MS = 1000;

/** `tool_timeout`: a duration of at least a second; 0 is not "none" here (unset is the default). */
const readToolTimeout = (r: YamlReader): { toolTimeoutMs?: number } => {
  const ms = r.duration("tool_timeout");
  if (ms === undefined) return {};
  if (ms < MIN_TOOL_TIMEOUT_MS) {
    r.error(
      codes.invalid,
      `"tool_timeout" must be at least 1s (leave it out for the default), got ${ms} ms`,
      "tool_timeout",
    );
    return {};
  }
  return { toolTimeoutMs: ms };
};

const readLoop = (r: YamlReader): { loop: LoopCommon; from: YamlReader } => {
  const nested = r.map("loop");
  const from = nested ?? r;
  if (nested) nested.checkKeys(LOOP_FORM_KEYS);
  const maxRaw = from.scalar("max_iterations");
  const maxIterations: number | string =
    typeof maxRaw === "string" && maxRaw.includes("{{")
      ? maxRaw
      : (from.num("max_iterations", { integer: true, min: 1, max: 10_000 }) ?? 100);
  const body = from.strList("body");
  if (!body || body.length === 0)
    from.error(codes.missing, 'a loop needs a non-empty "body" list of state names', "body");
  return {
    loop: {
      body: body ?? [],
      maxIterations,
      breakWhen: from.str("break_when"),
      onComplete: from.str("on_complete") ?? r.str("on_complete"),
    },
    from,
  };
};

export const readState = (r: YamlReader, name: string): State | undefined => {
  const type = r.str("type");
  if (type === undefined) {
    r.error(codes.missing, `state "${name}" needs a "type" (one of ${STATE_TYPES.join(", ")})`);
    return undefined;
  }
  switch (type) {
    case "operation":
      r.checkKeys(STATE_KEYS.operation, UNSUPPORTED_STATE_KEYS);
      return readOperation(r, name);
    case "terminal": {
      r.checkKeys(STATE_KEYS.terminal, UNSUPPORTED_STATE_KEYS);
      const raw = r.scalar("status");
      let status: "success" | "failure";
      let exitStatus: number | undefined;
      if (typeof raw === "number") {
        if (!Number.isInteger(raw) || raw < 0 || raw > 255)
          r.error(codes.invalid, "a numeric status must be an exit status 0..255", "status");
        status = raw === 0 ? "success" : "failure";
        exitStatus = raw === 0 ? undefined : raw;
      } else status = r.oneOf("status", ["success", "failure"] as const, "success") ?? "success";
      return {
        kind: "terminal",
        name,
        status,
        exitStatus,
        message: r.str("message"),
        source: r.where(),
      };
    }
    case "step": {
      // AWF's other spelling of an operation state: `type: step` with `operation:`.
      if (r.has("operation")) {
        r.checkKeys(STATE_KEYS.operation, UNSUPPORTED_STATE_KEYS);
        return readOperation(r, name);
      }
      r.checkKeys(STATE_KEYS.step, UNSUPPORTED_STATE_KEYS);
      const command = r.str("command");
      const scriptFile = r.str("script_file");
      if ((command === undefined) === (scriptFile === undefined)) {
        r.error(
          codes.invalid,
          'a step needs exactly one of "command" or "script_file"',
          command === undefined ? undefined : "script_file",
        );
      }
      return { ...readCommon(r, name), kind: "step", command, scriptFile, dir: r.str("dir") };
    }
    case "agent": {
      // `initial_prompt` is AWF's removed F083 field: named with its replacement, not as unknown.
      r.checkKeys([...STATE_KEYS.agent, "initial_prompt"], AGENT_UNSUPPORTED);
      if (r.raw("initial_prompt") !== undefined)
        r.error(
          codes.invalid,
          '"initial_prompt" was removed (AWF F083): use "prompt", which is the first user message',
          "initial_prompt",
        );
      const mode = r.str("mode");
      if (mode !== undefined && mode !== "single" && mode !== "conversation")
        r.error(codes.invalid, '"mode" must be single or conversation', "mode");
      const prompt = r.str("prompt");
      const promptFile = r.str("prompt_file");
      if (mode === "conversation" && promptFile !== undefined)
        r.error(
          codes.invalid,
          '"prompt_file" is not allowed in conversation mode: "prompt" is the first user message',
          "prompt_file",
        );
      else if ((prompt === undefined) === (promptFile === undefined)) {
        r.error(
          codes.invalid,
          mode === "conversation"
            ? 'a conversation needs "prompt": it is the first user message'
            : 'an agent step needs exactly one of "prompt" or "prompt_file"',
          prompt === undefined ? undefined : "prompt_file",
        );
      }
      const optionsNode = r.raw("options");
      if (optionsNode !== undefined && !isMap(optionsNode))
        r.error(codes.invalid, '"options" must be a mapping', "options");
      const options =
        optionsNode && isMap(optionsNode) ? (optionsNode.toJSON() as Record<string, unknown>) : {};
      const mcp = r.map("mcp_proxy");
      const provider = r.str("provider", true);
      checkProvider(r, provider, options);
      return {
        ...readCommon(r, name),
        kind: "agent",
        ...(mode === "conversation" ? { mode } : {}),
        provider: provider ?? "",
        prompt,
        promptFile,
        systemPrompt: r.str("system_prompt"),
        role: r.str("role"),
        options,
        outputFormat: r.oneOf("output_format", ["json", "text"] as const),
        mcpProxy: mcp ? readMcpProxy(mcp, name) : undefined,
        ...readToolTimeout(r),
        budget: readBudget(r),
        skills: readSkills(r),
        conversation: readConversation(r, mode),
      };
    }
    case "parallel": {
      r.checkKeys(STATE_KEYS.parallel, UNSUPPORTED_STATE_KEYS);
      const branches = r.strList("parallel");
      if (!branches || branches.length === 0)
        r.error(
          codes.missing,
          'a parallel state needs a non-empty "parallel" list of state names',
          "parallel",
        );
      return {
        ...readCommon(r, name),
        kind: "parallel",
        branches: branches ?? [],
        strategy:
          r.oneOf(
            "strategy",
            ["all_succeed", "any_succeed", "best_effort"] as const,
            "all_succeed",
          ) ?? "all_succeed",
        maxConcurrent: r.num("max_concurrent", { integer: true, min: 1 }),
      };
    }
    case "for_each": {
      r.checkKeys(STATE_KEYS.for_each, UNSUPPORTED_STATE_KEYS);
      const { loop, from } = readLoop(r);
      const items = from.str("over") ?? from.str("items");
      if (items === undefined)
        from.error(codes.missing, 'a for_each loop needs "items" (or "over" in the loop form)');
      return { ...readCommon(r, name), ...loop, kind: "for_each", items: items ?? "[]" };
    }
    case "while": {
      r.checkKeys(STATE_KEYS.while, UNSUPPORTED_STATE_KEYS);
      const { loop, from } = readLoop(r);
      const condition = from.str("while", true);
      return { ...readCommon(r, name), ...loop, kind: "while", condition: condition ?? "false" };
    }
    case "call_workflow": {
      r.checkKeys(STATE_KEYS.call_workflow, UNSUPPORTED_STATE_KEYS);
      const nested = r.map("call_workflow");
      nested?.checkKeys(CALL_WORKFLOW_FORM_KEYS);
      const from = nested ?? r;
      const strMap = (key: string): Record<string, string> => {
        const m = from.map(key);
        const out: Record<string, string> = {};
        for (const k of m?.keys() ?? []) {
          const v = m!.str(k);
          if (v !== undefined) out[k] = v;
        }
        return out;
      };
      const common = readCommon(r, name);
      return {
        ...common,
        timeoutMs: common.timeoutMs ?? timeoutOrNone(nested?.duration("timeout")),
        kind: "call_workflow",
        workflow: from.str("workflow", true) ?? "",
        inputs: strMap("inputs"),
        outputs: strMap("outputs"),
      };
    }
    default: {
      const guess = type === undefined ? undefined : suggestName(type, STATE_TYPES);
      r.error(
        codes.invalid,
        `unknown state type "${type}" (one of ${STATE_TYPES.join(", ")})${guess ? ` (did you mean "${guess}"?)` : ""}`,
        "type",
      );
      return undefined;
    }
  }
};
