/**
 * Full validation of a workflow in its hosted context: everything parseWorkflow checks,
 * plus what needs the outside world through ports: referenced bundle files exist (a literal
 * readFile's too, in the workflow or in a script's or prompt's text) and a script_file's
 * text hands no value to a second shell, sub-workflows resolve without
 * cycles and receive inputs they declare, connector ids exist in the catalog and are
 * open to the workflow's lane, and no step leaves its built-ins to the CLI
 * (`intercept_builtins: false`) where its lane's approval rules hold calls of a built-in.
 */
import { LineCounter, parseDocument } from "yaml";
import { AppError, isAppError } from "../../errors/app-error";
import { CODES, type ErrorCode } from "../../errors/error-codes";
import { shellCheckOf } from "./check-shell-safety";
import type { BundleFiles, SkillFinder, WorkflowResolver } from "../model/engine-ports";
import { literalFileReferences, readFileReferences, type FileReference } from "./file-references";
import { parseWorkflow, type ParseResult } from "./parse-workflow";
import { findSkill } from "../skills/find-skill";
import { stepApprovalRules } from "../../governance/step-rules";
import { suggestName } from "./suggest-name";
import { locate, type Diagnostics } from "./yaml-reader";
import type { TemplateLibrary } from "./template-library";
import { checkShellText, lineColumn } from "../expression/template";
import type { SourceRef, Workflow } from "../model/workflow-types";

type ConnectorVerdict = "ok" | "unknown" | "denied";
/** Answers for connector ids in a lane: the database in the worker, a local file or nothing in the CLI. */
export type ConnectorCatalog = {
  check(ids: string[], lane: string | undefined): Promise<Record<string, ConnectorVerdict>>;
  /** the tools each connector listed when last connected to; none for one never connected to */
  tools?(ids: string[]): Promise<Record<string, readonly string[] | undefined>>;
  /** why an id is unknown, when not "the team has none" (`switchyard run`: its connectors file) */
  unknown?(id: string): string;
};
/** A lane's approval rules as stored (checked again here): the database in the web, nothing in the CLI. */
type LaneApprovals = { laneRules(lane: string): Promise<readonly unknown[]> };
type ValidatePorts = {
  /** the parse of `source` the caller already made with these templates (parsed here otherwise) */
  parsed?: ParseResult;
  files?: BundleFiles;
  /** Where skills are found; default: the bundle (`files`). */
  skills?: SkillFinder;
  resolver?: WorkflowResolver;
  catalog?: ConnectorCatalog;
  approvals?: LaneApprovals;
  /** where `use_template` names are found */
  templates?: TemplateLibrary;
};

const push = (
  result: ParseResult,
  file: string,
  code: ErrorCode,
  where: SourceRef,
  message: string,
) => {
  result.errors.push(
    new AppError(code, `${where.path}: ${message}`, { location: { file, ...where } }),
  );
};

const checkCalls = async (
  wf: Workflow,
  resolver: WorkflowResolver,
  result: ParseResult,
  stack: string[],
) => {
  for (const state of wf.states.values()) {
    if (state.kind !== "call_workflow") continue;
    const where = { ...state.source, path: `${state.source.path}.workflow` };
    if ([...stack, wf.name].includes(state.workflow)) {
      push(
        result,
        wf.file,
        "WORKFLOW.VALIDATION.CYCLE_DETECTED",
        where,
        `call_workflow cycle: ${[...stack, wf.name, state.workflow].join(" -> ")}`,
      );
      continue;
    }
    let child: Workflow | undefined;
    try {
      child = await resolver.resolve(state.workflow, { file: wf.file });
    } catch (error) {
      const code = isAppError(error) ? error.code : "WORKFLOW.VALIDATION.UNDEFINED_SUBWORKFLOW";
      push(
        result,
        wf.file,
        code,
        where,
        `sub-workflow "${state.workflow}" cannot be loaded: ${error instanceof Error ? error.message : String(error)}`,
      );
      continue;
    }
    if (!child) {
      push(
        result,
        wf.file,
        "WORKFLOW.VALIDATION.UNDEFINED_SUBWORKFLOW",
        where,
        `sub-workflow "${state.workflow}" was not found`,
      );
      continue;
    }
    const declared = child.inputs.map((i) => i.name);
    for (const name of Object.keys(state.inputs)) {
      if (!declared.includes(name)) {
        const hint = suggestName(name, declared);
        push(
          result,
          wf.file,
          "WORKFLOW.VALIDATION.INVALID_REFERENCE",
          { ...state.source, path: `${state.source.path}.inputs.${name}` },
          `"${child.name}" has no input "${name}"${hint ? ` (did you mean "${hint}"?)` : ""}`,
        );
      }
    }
    for (const input of child.inputs) {
      if (input.required && input.default === undefined && !(input.name in state.inputs)) {
        push(
          result,
          wf.file,
          "WORKFLOW.VALIDATION.MISSING_FIELD",
          { ...state.source, path: `${state.source.path}.inputs` },
          `"${child.name}" requires input "${input.name}"`,
        );
      }
    }
    if (stack.length < 10) await checkCalls(child, resolver, result, [...stack, wf.name]);
  }
};

/**
 * The exposed tools (with their index) a connector did not list when last connected to;
 * none when it never was (the step's start checks them then, and always does again).
 */
const unknownOperations = (expose: readonly string[], listed: readonly string[] | undefined) =>
  listed ? [...expose.entries()].filter(([, tool]) => !listed.includes(tool)) : [];

/**
 * Each `plugin_tools` entry names a team connector open to the workflow's lane, and exposes
 * only tools the connector listed when last connected to (when the catalog knows them).
 */
const checkPlugins = async (
  wf: Workflow,
  catalog: ConnectorCatalog,
  source: string,
  result: ParseResult,
) => {
  let diag: Diagnostics | undefined;
  for (const state of wf.states.values()) {
    const entries = state.kind === "agent" ? (state.mcpProxy?.pluginTools ?? []) : [];
    if (state.kind !== "agent" || entries.length === 0) continue;
    const verdicts = await catalog.check(
      entries.map((e) => e.plugin),
      wf.lane,
    );
    const known = catalog.tools ? await catalog.tools(entries.map((e) => e.plugin)) : {};
    const at = (path: string) =>
      locate((diag ??= diagnosticsOf(source, wf.file)), path, state.source);
    entries.forEach((entry, i) => {
      const verdict = verdicts[entry.plugin] ?? "unknown";
      const entryPath = `${state.source.path}.mcp_proxy.plugin_tools[${i}]`;
      if (verdict === "ok") {
        const listed = known[entry.plugin];
        for (const [j, tool] of unknownOperations(entry.expose, listed))
          push(
            result,
            wf.file,
            "USER.MCP_PROXY.UNKNOWN_OPERATION",
            at(`${entryPath}.expose[${j}]`),
            `operation '${tool}' not found in plugin '${entry.plugin}' (its tools when last connected to: ${[...(listed ?? [])].sort().join(", ") || "none"})`,
          );
        return;
      }
      const where = at(`${entryPath}.plugin`);
      if (verdict === "unknown")
        push(
          result,
          wf.file,
          "USER.MCP_PROXY.UNKNOWN_PLUGIN",
          where,
          `plugin '${entry.plugin}' not found: ${catalog.unknown?.(entry.plugin) ?? `the team has no connector "${entry.plugin}"`}`,
        );
      else
        push(
          result,
          wf.file,
          "USER.MCP_PROXY.LANE_DENIED",
          where,
          `connector "${entry.plugin}" is not open to lane "${wf.lane ?? "default"}"`,
        );
    });
  }
};

/** Each skill a step names is found in the bundle; an empty or very large one is a warning. */
const checkSkills = (wf: Workflow, skills: SkillFinder, result: ParseResult) => {
  for (const state of wf.states.values()) {
    if (state.kind !== "agent") continue;
    for (const ref of state.skills ?? []) {
      const found = skills.find(ref);
      const problems = "body" in found ? found.warnings : [found];
      for (const p of problems) {
        const error = new AppError(p.code, `${ref.source.path}: ${p.message}`, {
          location: { file: wf.file, ...ref.source },
        });
        ("body" in found ? result.warnings : result.errors).push(error);
      }
    }
  }
};

/** The document again, to place a finding at a key; only for a workflow that parsed. */
const diagnosticsOf = (source: string, file: string): Diagnostics => {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, uniqueKeys: false, strict: true });
  return { file, errors: [], warnings: [], lineCounter, doc, source };
};

/** Steps whose built-ins are the CLI's, against the lane's rules as they are now. */
const checkLaneApprovals = async (
  wf: Workflow,
  approvals: LaneApprovals,
  source: string,
  result: ParseResult,
) => {
  const steps = [...wf.states.values()].filter(
    (s) => s.kind === "agent" && s.mcpProxy?.interceptBuiltins === false,
  );
  if (steps.length === 0) return;
  const laneRules = await approvals.laneRules(wf.lane ?? "default");
  let diag: Diagnostics | undefined;
  for (const state of steps) {
    if (state.kind !== "agent") continue;
    const refused = stepApprovalRules(laneRules, { name: state.name, mcpProxy: state.mcpProxy });
    if (!("error" in refused)) continue;
    diag ??= diagnosticsOf(source, wf.file);
    const path = refused.error.location?.path ?? state.source.path;
    push(
      result,
      wf.file,
      refused.error.code,
      locate(diag, path, state.source),
      refused.error.message,
    );
  }
};

export const validateWorkflow = async (
  source: string,
  file: string,
  ports: ValidatePorts = {},
): Promise<ParseResult> => {
  const result =
    ports.parsed ?? parseWorkflow(source, file, undefined, { templates: ports.templates });
  const wf = result.workflow;
  if (!wf) return result;
  if (ports.files) {
    const refs: (FileReference & { in?: string })[] = literalFileReferences(wf);
    // A script's or a prompt file's text is a template too: what it reads is checked after it.
    for (let i = 0; i < refs.length; i++) {
      const ref = refs[i]!;
      const where = ref.source;
      const named = ref.in ? `"${ref.path}" (read by ${ref.in})` : `"${ref.path}"`;
      try {
        const content = ports.files.read(ref.path);
        if (content === undefined) {
          push(
            result,
            file,
            "USER.INPUT.MISSING_FILE",
            where,
            `${named} is not in the workflow bundle`,
          );
          continue;
        }
        if (ref.key === "readFile") continue;
        if (ref.key === "script_file")
          for (const f of checkShellText(content, { ...shellCheckOf(wf), script: true })) {
            const { line, column } = lineColumn(content, f.at);
            push(
              result,
              file,
              CODES.NESTED_SHELL,
              where,
              `${ref.path} line ${line}, column ${column}: ${f.message}`,
            );
          }
        refs.push(...readFileReferences(content, where).map((r) => ({ ...r, in: ref.path })));
      } catch (error) {
        // A file that exists but may not be read (a FIFO, a symlink, too large) is named as such.
        if (!isAppError(error)) throw error;
        push(result, file, error.code, where, error.message);
      }
    }
  }
  const skills =
    ports.skills ?? (ports.files ? { find: (ref) => findSkill(ports.files!, ref) } : undefined);
  if (skills) checkSkills(wf, skills, result);
  if (ports.resolver) await checkCalls(wf, ports.resolver, result, []);
  if (ports.catalog) await checkPlugins(wf, ports.catalog, source, result);
  if (ports.catalog) {
    for (const state of wf.states.values()) {
      if (state.kind !== "agent" || !state.mcpProxy || state.mcpProxy.connectors.length === 0)
        continue;
      const verdicts = await ports.catalog.check(state.mcpProxy.connectors, wf.lane);
      for (const id of state.mcpProxy.connectors) {
        const where = { ...state.source, path: `${state.source.path}.mcp_proxy.connectors` };
        const verdict = verdicts[id] ?? "unknown";
        if (verdict === "unknown")
          push(
            result,
            file,
            "USER.MCP_PROXY.UNKNOWN_CONNECTOR",
            where,
            `connector "${id}" does not exist${ports.catalog.unknown ? `: ${ports.catalog.unknown(id)}` : ""}`,
          );
        else if (verdict === "denied")
          push(
            result,
            file,
            "USER.MCP_PROXY.LANE_DENIED",
            where,
            `connector "${id}" is not open to lane "${wf.lane ?? "default"}"`,
          );
      }
    }
  }
  if (ports.approvals) await checkLaneApprovals(wf, ports.approvals, source, result);
  if (result.errors.length > 0) return { ...result, workflow: undefined };
  return result;
};
