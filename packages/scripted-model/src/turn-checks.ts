/**
 * Decides what a request gets: whether a rule answers it, whether it carries what its turn
 * expects, and which offered tool each scripted call names. Pure functions of the request view.
 */
import type { OfferedTool, ReplyToolCall, RequestView } from "./api-adapter";
import type { Expectation, RuleMatch, ScriptToolCall, ToolNameSpec } from "./script";

const list = (v: string | string[] | undefined) =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

const excerpt = (text: string, max = 300) =>
  JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);

const offeredNames = (view: RequestView) => `[${view.tools.map((t) => t.name).join(", ")}]`;

/** Every way the request falls short of the expectation, as sentences; empty when it holds. */
export const checkExpectation = (view: RequestView, exp: Expectation | undefined): string[] => {
  if (!exp) return [];
  const problems: string[] = [];
  const names = new Set(view.tools.map((t) => t.name));
  for (const name of list(exp.toolOffered))
    if (!names.has(name))
      problems.push(`expected tool "${name}" to be offered; offered: ${offeredNames(view)}`);
  for (const name of list(exp.toolNotOffered))
    if (names.has(name))
      problems.push(`expected tool "${name}" not to be offered; offered: ${offeredNames(view)}`);
  if (exp.systemContains !== undefined && !view.system.includes(exp.systemContains))
    problems.push(
      `expected the system prompt to contain ${JSON.stringify(exp.systemContains)}; it is ${excerpt(view.system)}`,
    );
  if (
    exp.lastToolResultContains !== undefined &&
    !view.lastToolResult?.includes(exp.lastToolResultContains)
  )
    problems.push(
      `expected the last tool result to contain ${JSON.stringify(exp.lastToolResultContains)}; ` +
        (view.lastToolResult === undefined
          ? "the request carries no tool result"
          : `it is ${excerpt(view.lastToolResult)}`),
    );
  if (exp.messagesContain !== undefined && !view.messagesText.includes(exp.messagesContain))
    problems.push(`expected the messages to contain ${JSON.stringify(exp.messagesContain)}`);
  if (exp.model !== undefined && view.model !== exp.model)
    problems.push(
      `expected model ${JSON.stringify(exp.model)}; the request asks for ${JSON.stringify(view.model)}`,
    );
  return problems;
};

const specText = (spec: ToolNameSpec) =>
  typeof spec === "string"
    ? `"${spec}"`
    : "suffix" in spec
      ? `suffix "${spec.suffix}"`
      : `regex /${spec.regex}/`;

/** A suffix matches a whole name or a part after a separator: `Write` fits `mcp__switchyard__Write`, not `Rewrite`. */
const endsWithPart = (name: string, suffix: string) =>
  name === suffix || (name.endsWith(suffix) && /[^A-Za-z0-9]$/.test(name.slice(0, -suffix.length)));

const findTool = (view: RequestView, spec: ToolNameSpec): OfferedTool | string => {
  if (typeof spec === "string") return view.tools.find((t) => t.name === spec) ?? { name: spec };
  let candidates: OfferedTool[];
  if ("suffix" in spec) {
    candidates = view.tools.filter((t) => endsWithPart(t.name, spec.suffix));
  } else {
    let re: RegExp;
    try {
      re = new RegExp(spec.regex);
    } catch (e) {
      return `invalid tool name regex /${spec.regex}/: ${(e as Error).message}`;
    }
    candidates = view.tools.filter((t) => re.test(t.name));
  }
  if (candidates.length === 1) return candidates[0]!;
  if (!candidates.length)
    return `no offered tool matches ${specText(spec)}; offered: ${offeredNames(view)}`;
  return `${specText(spec)} is ambiguous: it matches ${candidates.map((t) => t.name).join(", ")}`;
};

/** The calls to send, with names resolved against the offered tools, or the first problem. */
export const resolveToolCalls = (
  view: RequestView,
  calls: ScriptToolCall[],
  newId: (index: number) => string,
): { calls: ReplyToolCall[] } | { problem: string } => {
  const out: ReplyToolCall[] = [];
  for (const [index, call] of calls.entries()) {
    const tool = findTool(view, call.name);
    if (typeof tool === "string") return { problem: tool };
    out.push({
      id: call.id ?? newId(index),
      name: tool.bareName ?? tool.name,
      ...(tool.namespace ? { namespace: tool.namespace } : {}),
      arguments: call.arguments,
    });
  }
  return { calls: out };
};

export type RuleContext = { method: string; pathname: string; view: RequestView | undefined };

export const ruleMatches = (match: RuleMatch, ctx: RuleContext): boolean => {
  const { view } = ctx;
  if (match.method !== undefined && match.method.toUpperCase() !== ctx.method) return false;
  if (match.path !== undefined && match.path !== ctx.pathname) return false;
  if (match.pathRegex !== undefined && !new RegExp(match.pathRegex).test(ctx.pathname))
    return false;
  if (match.api !== undefined && view?.api !== match.api) return false;
  if (match.noTools !== undefined && (!view || (view.tools.length === 0) !== match.noTools))
    return false;
  if (match.systemContains !== undefined && !view?.system.includes(match.systemContains))
    return false;
  if (match.messagesContain !== undefined && !view?.messagesText.includes(match.messagesContain))
    return false;
  return true;
};
