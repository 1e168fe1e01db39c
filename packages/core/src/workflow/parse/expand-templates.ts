/**
 * Expands every `use_template` state of a workflow document in place, before the states
 * are read: the template's state with its parameters substituted, under the using state's
 * name, with the using state's `on_success`/`on_failure` in place of the template's. A
 * problem is reported at the using state's line (`states.x.use_template`,
 * `states.x.parameters.y`) in AWF's words; a state that cannot be expanded is left out.
 */
import { isMap, isScalar, type Node, type YAMLMap } from "yaml";
import type { ErrorCode } from "../../errors/error-codes";
import { suggestName } from "./suggest-name";
import { YamlReader, deref, locate, report, type Diagnostics } from "./yaml-reader";
import { readTemplateFile, type TemplateReadResult } from "./read-template";
import { substituteParameters } from "./substitute-parameters";
import type { TemplateLibrary } from "./template-library";

/** A template a workflow used, as the library gave it. */
export type TemplateUse = { name: string; file: string; version?: number };

const USE_KEYS = ["use_template", "parameters", "on_success", "on_failure"] as const;
const OVERRIDES = ["on_success", "on_failure"] as const;

type Problem = { code: ErrorCode; message: string; path: string };
type Expansion = { state: Record<string, unknown> } | { problem: Problem };

const plain = (node: unknown): unknown =>
  isScalar(node) ? node.value : (node as { toJSON?: () => unknown } | null)?.toJSON?.();

const lineOf = (r: TemplateReadResult) => {
  const e = r.errors[0]!;
  const where = e.location?.line ? ` line ${e.location.line}` : "";
  return { code: e.code, text: `${e.location?.file ?? ""}${where}: ${e.message}` };
};

class Expander {
  readonly used = new Map<string, TemplateUse>();
  private readonly read = new Map<string, TemplateReadResult>();

  constructor(private readonly library: TemplateLibrary) {}

  /** The template's state for these parameters; `at` is where a problem is reported. */
  instantiate(
    name: string,
    given: Record<string, unknown>,
    chain: readonly string[],
    at: { use: string; parameters: string | undefined },
  ): Expansion {
    const fail = (code: ErrorCode, message: string, path = at.use): Expansion => ({
      problem: { code, message, path },
    });
    if (chain.includes(name))
      return fail(
        "WORKFLOW.TEMPLATE.CIRCULAR_REFERENCE",
        `circular template reference detected: ${[...chain, name].join(" -> ")}`,
      );
    const source = this.library.find(name);
    if (!source) {
      const hint = suggestName(name, this.library.names());
      return fail(
        "WORKFLOW.TEMPLATE.NOT_FOUND",
        `template '${name}' not found${hint ? ` (did you mean '${hint}'?)` : ""}`,
      );
    }
    let parsed = this.read.get(name);
    if (!parsed) {
      parsed = readTemplateFile(source.source, source.file);
      this.read.set(name, parsed);
    }
    if (!parsed.template) {
      const { code, text } = lineOf(parsed);
      return fail(code, `template '${name}' is invalid: ${text}`);
    }
    const template = parsed.template;
    const declared = template.parameters.map((p) => p.name);
    for (const key of Object.keys(given))
      if (!declared.includes(key)) {
        const hint = suggestName(key, declared);
        return fail(
          "WORKFLOW.TEMPLATE.UNKNOWN_PARAMETER",
          `template '${name}' has no parameter '${key}'${hint ? ` (did you mean '${hint}'?)` : ""}`,
          at.parameters ? `${at.parameters}.${key}` : at.use,
        );
      }
    const values: Record<string, unknown> = {};
    for (const p of template.parameters) {
      if (Object.hasOwn(given, p.name)) values[p.name] = given[p.name];
      else if (p.required)
        return fail(
          "WORKFLOW.TEMPLATE.MISSING_PARAMETER",
          `template '${name}' missing required parameter '${p.name}'`,
          at.parameters ?? at.use,
        );
      else values[p.name] = p.default ?? "";
    }
    this.used.set(name, { name, file: source.file, version: source.version });
    const state = substituteParameters(template.state, values) as Record<string, unknown>;
    const inner = state.use_template;
    if (inner === undefined) return { state };
    if (typeof inner !== "string")
      return fail("WORKFLOW.TEMPLATE.INVALID", `template '${name}': use_template must be a name`);
    const params = state.parameters;
    const nested = this.instantiate(
      inner,
      params && typeof params === "object" ? (params as Record<string, unknown>) : {},
      [...chain, name],
      { use: at.use, parameters: undefined },
    );
    if ("problem" in nested) return nested;
    const merged = { ...nested.state };
    for (const key of OVERRIDES) if (state[key] !== undefined) merged[key] = state[key];
    return { state: merged };
  }
}

export const expandTemplates = (
  diag: Diagnostics,
  root: YAMLMap,
  library: TemplateLibrary,
): TemplateUse[] => {
  const states = deref(diag, root.get("states", true));
  if (!isMap(states) || !diag.doc) return [];
  const expander = new Expander(library);
  for (const pair of states.items) {
    const node = deref(diag, pair.value);
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!isMap(node) || !node.has("use_template")) continue;
    const path = `states.${key}`;
    const reader = new YamlReader(diag, node, path);
    reader.checkKeys(USE_KEYS);
    (diag.skipStates ??= new Set()).add(key);
    const name = reader.str("use_template", true);
    if (name === undefined) continue;
    const paramsNode = reader.raw("parameters");
    if (paramsNode !== undefined && !isMap(paramsNode)) {
      reader.error(
        "WORKFLOW.VALIDATION.INVALID_VALUE",
        `"parameters" must be a mapping`,
        "parameters",
      );
      continue;
    }
    const given: Record<string, unknown> = {};
    for (const p of paramsNode?.items ?? [])
      given[isScalar(p.key) ? String(p.key.value) : String(p.key)] = plain(deref(diag, p.value));
    const result = expander.instantiate(name, given, [], {
      use: `${path}.use_template`,
      parameters: paramsNode ? `${path}.parameters` : undefined,
    });
    if ("problem" in result) {
      const { code, message, path: at } = result.problem;
      report(diag, "error", code, message, locate(diag, at, reader.where()));
      continue;
    }
    const expanded = diag.doc.createNode(result.state) as YAMLMap;
    for (const k of OVERRIDES) {
      const own = node.get(k, true) as Node | undefined;
      if (own !== undefined) expanded.set(k, own);
    }
    expanded.range = node.range;
    pair.value = expanded;
    diag.skipStates.delete(key);
  }
  return [...expander.used.values()];
};
