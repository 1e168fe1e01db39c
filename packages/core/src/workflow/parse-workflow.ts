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
import { AppError } from "../errors/app-error";
import { checkStructure } from "./check-structure";
import { readWorkflow } from "./read-workflow";
import type { Workflow } from "./workflow-types";
import { YamlReader, type Diagnostics } from "./yaml-reader";

export type ParseResult = { workflow?: Workflow; errors: AppError[]; warnings: AppError[] };
type ParseLimits = { maxBytes: number; maxAliases: number; maxDepth: number };

export const DEFAULT_LIMITS: ParseLimits = { maxBytes: 1024 * 1024, maxAliases: 100, maxDepth: 64 };

const limitError = (file: string, message: string, line?: number, column?: number) =>
  new AppError("WORKFLOW.PARSE.LIMIT_EXCEEDED", message, {
    location: { file, path: "$", line, column },
  });

/** Depth of the node tree and alias count, iteratively so a deep file cannot blow the stack. */
const measure = (
  root: unknown,
  maxDepth: number,
): { depth: number; aliases: number; deepest?: Node } => {
  let depth = 0;
  let aliases = 0;
  let deepest: Node | undefined;
  const stack: { node: unknown; d: number }[] = [{ node: root, d: 1 }];
  while (stack.length > 0) {
    const { node, d } = stack.pop()!;
    if (d > depth) {
      depth = d;
      deepest = node as Node;
    }
    if (depth > maxDepth) break;
    if (isAlias(node)) aliases++;
    else if (isMap(node) || isSeq(node))
      for (const item of node.items) stack.push({ node: item, d: d + 1 });
    else if (isPair(node)) {
      stack.push({ node: node.key, d });
      stack.push({ node: node.value, d });
    }
  }
  return { depth, aliases, deepest };
};

export const parseWorkflow = (
  source: string,
  file = "workflow.yaml",
  limits: ParseLimits = DEFAULT_LIMITS,
): ParseResult => {
  // No Buffer here: the parser also runs in the browser editor.
  if (
    source.length > limits.maxBytes ||
    new TextEncoder().encode(source).length > limits.maxBytes
  ) {
    return {
      errors: [limitError(file, `${file} is larger than ${limits.maxBytes} bytes`)],
      warnings: [],
    };
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, {
    lineCounter,
    uniqueKeys: true,
    prettyErrors: false,
    strict: true,
  });
  const diag: Diagnostics = { file, errors: [], warnings: [], lineCounter, doc, source };
  for (const e of doc.errors) {
    const pos = lineCounter.linePos(e.pos[0]);
    const code =
      e.code === "DUPLICATE_KEY" ? "WORKFLOW.PARSE.DUPLICATE_KEY" : "WORKFLOW.PARSE.YAML_SYNTAX";
    const message = e.message.split("\n")[0] ?? e.message;
    diag.errors.push(
      new AppError(code, message, {
        location: { file, path: "$", line: pos.line, column: pos.col },
      }),
    );
  }
  if (diag.errors.length > 0) return { errors: diag.errors, warnings: [] };

  const { depth, aliases, deepest } = measure(doc.contents, limits.maxDepth);
  if (depth > limits.maxDepth) {
    const pos = deepest?.range ? lineCounter.linePos(deepest.range[0]) : undefined;
    return {
      errors: [
        limitError(file, `nesting deeper than ${limits.maxDepth} levels`, pos?.line, pos?.col),
      ],
      warnings: [],
    };
  }
  if (aliases > 0) {
    try {
      doc.toJS({ maxAliasCount: limits.maxAliases });
    } catch {
      return {
        errors: [limitError(file, `aliases expand beyond ${limits.maxAliases} nodes`)],
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
  const workflow = readWorkflow(new YamlReader(diag, root, ""));
  if (workflow) checkStructure(workflow, diag);
  const sorted = (list: AppError[]) =>
    [...list].sort(
      (a, b) =>
        (a.location?.line ?? 0) - (b.location?.line ?? 0) ||
        (a.location?.column ?? 0) - (b.location?.column ?? 0),
    );
  const errors = sorted(diag.errors);
  return {
    workflow: errors.length === 0 ? workflow : undefined,
    errors,
    warnings: sorted(diag.warnings),
  };
};
