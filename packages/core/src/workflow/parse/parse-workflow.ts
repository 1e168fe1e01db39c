/**
 * Reads workflow YAML into the engine's shape, collecting every problem (code, YAML path,
 * line, column, suggestion) rather than stopping at the first. Safe on hostile input: the
 * source size, alias expansion and nesting depth are bounded before anything is read.
 */
import {
  LineCounter,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parseDocument,
  type Node,
} from "yaml";
import { AppError } from "../../errors/app-error";
import { checkStructure } from "./check-structure";
import { readWorkflow } from "./read-workflow";
import type { Workflow } from "../model/workflow-types";
import { findDeepNesting, findUnprintable } from "./yaml-prescan";
import { YamlReader, locate, type Diagnostics } from "./yaml-reader";
import { expandTemplates, type TemplateUse } from "./expand-templates";
import { NO_TEMPLATES, type TemplateLibrary } from "./template-library";

export type ParseResult = {
  workflow?: Workflow;
  errors: AppError[];
  warnings: AppError[];
  /** the templates its `use_template` states expanded, each once */
  templates?: TemplateUse[];
};
type ParseOptions = {
  /** where `use_template` names are found; none: every one is reported as not found */
  templates?: TemplateLibrary;
};
type ParseLimits = {
  maxBytes: number;
  maxAliases: number;
  maxDepth: number;
  /** items of one mapping or sequence */
  maxItems: number;
  maxStates: number;
};

export const DEFAULT_LIMITS: ParseLimits = {
  maxBytes: 1024 * 1024,
  maxAliases: 100,
  maxDepth: 64,
  maxItems: 10_000,
  maxStates: 1000,
};

const limitError = (file: string, message: string, at: { line: number; col: number }, path = "$") =>
  new AppError("WORKFLOW.PARSE.LIMIT_EXCEEDED", message, {
    location: { file, path, line: at.line, column: at.col },
  });

const FIRST = { line: 1, col: 1 };

type Measured = { depth: number; deepest?: Node; firstAlias?: Node; big?: Node; duplicate?: Node };

/**
 * Depth, the first alias, the first collection over `maxItems` and the first duplicate key,
 * in one iterative walk (a deep file cannot blow the stack; a map of many keys is checked
 * for duplicates in linear time, where the YAML library compares every pair).
 */
const measure = (root: unknown, limits: ParseLimits): Measured => {
  const out: Measured = { depth: 0 };
  const stack: { node: unknown; d: number }[] = [{ node: root, d: 1 }];
  while (stack.length > 0) {
    const { node, d } = stack.pop()!;
    if (d > out.depth) {
      out.depth = d;
      out.deepest = node as Node;
    }
    if (out.depth > limits.maxDepth) break;
    if (isAlias(node)) out.firstAlias ??= node;
    else if (isMap(node) || isSeq(node)) {
      if (node.items.length > limits.maxItems) out.big ??= node;
      const seen = new Set<string>();
      for (const item of node.items) {
        if (isPair(item) && isScalar(item.key)) {
          const key = `${typeof item.key.value}:${String(item.key.value)}`;
          if (seen.has(key)) out.duplicate ??= item.key;
          seen.add(key);
        }
        stack.push({ node: item, d: d + 1 });
      }
    } else if (isPair(node)) {
      stack.push({ node: node.key, d });
      stack.push({ node: node.value, d });
    }
  }
  return out;
};

/** Line and column (from 1) of an offset, for text the YAML library never read. */
const positionOf = (source: string, offset: number) => {
  const before = source.slice(0, offset);
  const lineStart = Math.max(before.lastIndexOf("\n"), before.lastIndexOf("\r")) + 1;
  return { line: before.split(/\r\n|\r|\n/).length, col: offset - lineStart + 1 };
};

/** Where a node starts, or the first line. */
const startOf = (lineCounter: LineCounter, node: Node | undefined) =>
  node?.range ? lineCounter.linePos(node.range[0]) : FIRST;

/** Reading a valid tree can still recurse (a pathological expression, say): that is a limit, never a crash. */
const tooComplex = (file: string, error: unknown): ParseResult => {
  if (!(error instanceof RangeError)) throw error;
  return { errors: [limitError(file, "the workflow is too complex to read", FIRST)], warnings: [] };
};

/** Gives every problem a line and column: its YAML path's, the nearest enclosing one's, or the first line. */
const placeAll = (diag: Diagnostics, list: AppError[]) =>
  list.map((e) => {
    if (e.location?.line !== undefined && e.location.line >= 1 && e.location.column !== undefined)
      return e;
    let path = e.location?.path ?? "$";
    let where = locate(diag, path, { path });
    while (where.line === undefined && /[.[]/.test(path)) {
      path = path.replace(/(\.[^.[]*|\[\d+\])$/, "");
      where = locate(diag, path, { path });
    }
    const location = {
      ...e.location,
      file: diag.file,
      path: e.location?.path ?? "$",
      line: where.line ?? 1,
      column: where.column ?? 1,
    };
    return new AppError(e.code, e.message, { ...e, location, cause: e.cause });
  });

export const parseWorkflow = (
  source: string,
  file = "workflow.yaml",
  limits: ParseLimits = DEFAULT_LIMITS,
  options: ParseOptions = {},
): ParseResult => {
  // No Buffer here: the parser also runs in the browser editor.
  if (
    source.length > limits.maxBytes ||
    new TextEncoder().encode(source).length > limits.maxBytes
  ) {
    return {
      errors: [limitError(file, `${file} is larger than ${limits.maxBytes} bytes`, FIRST)],
      warnings: [],
    };
  }
  const unprintable = findUnprintable(source);
  const deep = unprintable ? undefined : findDeepNesting(source, limits.maxDepth * 2);
  if (unprintable || deep !== undefined) {
    const pos = positionOf(source, unprintable?.offset ?? deep!);
    return {
      errors: [
        unprintable
          ? new AppError("WORKFLOW.PARSE.YAML_SYNTAX", unprintable.message, {
              location: { file, path: "$", line: pos.line, column: pos.col },
            })
          : limitError(file, `nesting deeper than ${limits.maxDepth} levels`, pos),
      ],
      warnings: [],
    };
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, {
    lineCounter,
    uniqueKeys: false,
    prettyErrors: false,
    strict: true,
  });
  const diag: Diagnostics = { file, errors: [], warnings: [], lineCounter, doc, source };
  for (const e of doc.errors) {
    const pos = lineCounter.linePos(e.pos[0]);
    const overflow = /call stack/i.test(e.message);
    const code = overflow ? "WORKFLOW.PARSE.LIMIT_EXCEEDED" : "WORKFLOW.PARSE.YAML_SYNTAX";
    const message = overflow
      ? `nesting deeper than ${limits.maxDepth} levels`
      : (e.message.split("\n")[0] ?? e.message);
    diag.errors.push(
      new AppError(code, message, {
        location: { file, path: "$", line: pos.line, column: pos.col },
      }),
    );
  }
  if (diag.errors.length > 0) return { errors: diag.errors, warnings: [] };

  const measured = measure(doc.contents, limits);
  if (measured.depth > limits.maxDepth) {
    const pos = startOf(lineCounter, measured.deepest);
    return {
      errors: [limitError(file, `nesting deeper than ${limits.maxDepth} levels`, pos)],
      warnings: [],
    };
  }
  if (measured.big) {
    const pos = startOf(lineCounter, measured.big);
    const message = `a mapping or list of more than ${limits.maxItems} items`;
    return { errors: [limitError(file, message, pos)], warnings: [] };
  }
  if (measured.duplicate) {
    const pos = startOf(lineCounter, measured.duplicate);
    const key = String((measured.duplicate as { value?: unknown }).value);
    const error = new AppError("WORKFLOW.PARSE.DUPLICATE_KEY", `the key "${key}" is given twice`, {
      location: { file, path: "$", line: pos.line, column: pos.col },
    });
    return { errors: [error], warnings: [] };
  }
  if (measured.firstAlias) {
    try {
      doc.toJS({ maxAliasCount: limits.maxAliases });
    } catch (error) {
      const pos = startOf(lineCounter, measured.firstAlias);
      const bomb = error instanceof Error && /alias count/i.test(error.message);
      const message = bomb
        ? `aliases expand beyond ${limits.maxAliases} nodes`
        : error instanceof Error
          ? (error.message.split("\n")[0] ?? error.message)
          : String(error);
      return {
        errors: [
          bomb
            ? limitError(file, message, pos)
            : new AppError("WORKFLOW.PARSE.YAML_SYNTAX", message, {
                location: { file, path: "$", line: pos.line, column: pos.col },
              }),
        ],
        warnings: [],
      };
    }
  }
  const root = doc.contents;
  if (!isMap(root)) {
    const message =
      isScalar(root) || root === null
        ? "a workflow must be a mapping with name and states"
        : "a workflow must be a mapping";
    diag.errors.push(
      new AppError("WORKFLOW.VALIDATION.INVALID_VALUE", `$: ${message}`, {
        location: { file, path: "$", line: 1, column: 1 },
      }),
    );
    return { errors: diag.errors, warnings: [] };
  }
  const states = root.get("states", true);
  if (isMap(states) && states.items.length > limits.maxStates + 1) {
    const pos = startOf(lineCounter, states);
    const message = `more than ${limits.maxStates} states`;
    return { errors: [limitError(file, message, pos, "states")], warnings: [] };
  }
  let workflow: Workflow | undefined;
  let templates: TemplateUse[];
  try {
    templates = expandTemplates(diag, root, options.templates ?? NO_TEMPLATES);
    workflow = readWorkflow(new YamlReader(diag, root, ""));
    if (workflow) checkStructure(workflow, diag);
  } catch (error) {
    return tooComplex(file, error);
  }
  const sorted = (list: AppError[]) =>
    placeAll(diag, list).sort(
      (a, b) =>
        (a.location?.line ?? 0) - (b.location?.line ?? 0) ||
        (a.location?.column ?? 0) - (b.location?.column ?? 0),
    );
  const errors = sorted(diag.errors);
  return {
    workflow: errors.length === 0 ? workflow : undefined,
    errors,
    warnings: sorted(diag.warnings),
    ...(templates.length > 0 ? { templates } : {}),
  };
};
