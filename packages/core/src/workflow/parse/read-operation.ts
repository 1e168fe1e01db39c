/**
 * Reads an operation state (`type: operation`, or AWF's `type: step` with `operation:`)
 * and checks its `inputs` against the operation's schema where they are written: unknown
 * operations and inputs with the closest name, missing required inputs, wrong types and
 * values AWF refuses. A `{{ }}` value is taken as it is and checked when the state runs.
 */
import { isMap, isScalar, isSeq, type Node } from "yaml";
import { readCommon } from "./read-common-fields";
import { suggestName } from "./suggest-name";
import {
  BATCHABLE_OPERATIONS,
  BATCH_STRATEGIES,
  HTTP_METHODS,
  isOperationName,
  NOTIFY_BACKENDS,
  NOTIFY_PRIORITIES,
  OPERATION_NAMES,
  OPERATIONS,
  type OperationInputSpec,
} from "../model/operation-catalog";
import type { OperationState } from "../model/workflow-types";
import { codes, report, sourceOf, type YamlReader } from "./yaml-reader";

const isTemplate = (v: unknown) => typeof v === "string" && v.includes("{{");

const typeProblem = (spec: OperationInputSpec, node: Node): string | undefined => {
  if (isScalar(node) && isTemplate(node.value)) return undefined;
  const v: unknown = isScalar(node) ? node.value : undefined;
  switch (spec.type) {
    case "string":
      return isScalar(node) && v !== null && typeof v !== "object" ? undefined : "a string";
    case "integer":
      return (typeof v === "number" && Number.isInteger(v)) ||
        (typeof v === "string" && /^-?\d+$/.test(v.trim()))
        ? undefined
        : "an integer";
    case "boolean":
      return typeof v === "boolean" || v === "true" || v === "false" ? undefined : "true or false";
    case "array":
      return isSeq(node) ? undefined : "a list";
    case "object":
      return isMap(node) ? undefined : "a mapping";
    default: {
      const never: never = spec.type;
      return never;
    }
  }
};

/** A literal string input, for the per-operation checks; undefined when absent or a template. */
const literal = (r: YamlReader, key: string): string | undefined => {
  const v = r.scalar(key);
  return typeof v === "string" && !isTemplate(v) ? v : undefined;
};

const checkChoice = (r: YamlReader, key: string, values: readonly string[], fold = false) => {
  const v = literal(r, key);
  if (v === undefined) return;
  const given = fold ? v.toUpperCase() : v;
  if (values.includes(given)) return;
  const hint = suggestName(given, values);
  r.error(
    codes.invalid,
    `"${key}" must be one of ${values.join(", ")}, got "${v}"${hint ? ` (did you mean "${hint}"?)` : ""}`,
    key,
  );
};

/** Checks one operation's inputs mapping; `exclude` names keys that are not inputs (batch's `name`). */
const checkInputs = (r: YamlReader, operation: string, exclude: readonly string[] = []) => {
  if (!isOperationName(operation)) return;
  const specs: Record<string, OperationInputSpec> = OPERATIONS[operation].inputs;
  r.checkKeys([...exclude, ...Object.keys(specs)], {}, codes.invalid);
  for (const [key, spec] of Object.entries(specs)) {
    const node = r.raw(key);
    if (node === undefined || (isScalar(node) && node.value === null)) {
      if (spec.required)
        r.error(codes.missing, `operation ${operation} needs the input "${key}"`, key);
      continue;
    }
    const problem = typeProblem(spec, node);
    if (problem) r.error(codes.invalid, `input "${key}" of ${operation} must be ${problem}`, key);
  }
  switch (operation) {
    case "http.request": {
      checkChoice(r, "method", HTTP_METHODS, true);
      const url = literal(r, "url");
      if (url !== undefined && !/^https?:\/\//i.test(url))
        r.error(codes.invalid, `"url" must start with http:// or https://, got "${url}"`, "url");
      const statuses = r.raw("retryable_status_codes");
      if (statuses && isSeq(statuses))
        for (const [i, item] of statuses.items.entries()) {
          const v: unknown = isScalar(item) ? item.value : undefined;
          if (!(typeof v === "number" && Number.isInteger(v) && v >= 100 && v <= 599))
            report(
              r.diag,
              "error",
              codes.invalid,
              "a retryable status code is an integer HTTP status (100..599)",
              sourceOf(r.diag, item as Node, `${r.at("retryable_status_codes")}[${i}]`),
            );
        }
      return;
    }
    case "notify.send": {
      checkChoice(r, "backend", NOTIFY_BACKENDS);
      checkChoice(r, "priority", NOTIFY_PRIORITIES);
      if (literal(r, "backend") === "webhook" && !r.has("webhook_url"))
        r.error(codes.missing, 'the webhook backend needs the input "webhook_url"', "backend");
      const url = literal(r, "webhook_url");
      if (url !== undefined && !/^https?:\/\//i.test(url))
        r.error(codes.invalid, '"webhook_url" must start with http:// or https://', "webhook_url");
      return;
    }
    case "github.batch": {
      checkChoice(r, "strategy", BATCH_STRATEGIES);
      const concurrency = r.scalar("concurrency");
      if (typeof concurrency === "number" && concurrency < 1)
        r.error(codes.invalid, '"concurrency" must be at least 1', "concurrency");
      for (const { node, path } of r.seq("operations") ?? []) {
        const item = r.child(node, path);
        if (!item) continue;
        const name = item.str("name", true);
        if (name === undefined || isTemplate(name)) continue;
        if (!(BATCHABLE_OPERATIONS as string[]).includes(name)) {
          const hint = suggestName(name, BATCHABLE_OPERATIONS);
          item.error(
            codes.invalid,
            `a batch runs github operations (${BATCHABLE_OPERATIONS.join(", ")}), not "${name}"${hint ? ` (did you mean "${hint}"?)` : ""}`,
            "name",
          );
          continue;
        }
        checkInputs(item, name, ["name"]);
      }
      return;
    }
    case "github.get_issue":
    case "github.get_pr":
    case "github.create_issue":
    case "github.create_pr":
    case "github.add_labels":
    case "github.add_comment":
    case "github.list_comments":
      return;
    default: {
      const never: never = operation;
      return never;
    }
  }
};

export const readOperation = (r: YamlReader, name: string): OperationState => {
  const operation = r.str("operation", true) ?? "";
  if (operation !== "" && !isOperationName(operation)) {
    const hint = suggestName(operation, OPERATION_NAMES);
    r.error(
      codes.invalid,
      `unknown operation "${operation}" (one of ${OPERATION_NAMES.join(", ")})${hint ? ` (did you mean "${hint}"?)` : ""}`,
      "operation",
    );
  }
  const inputsNode = r.raw("inputs");
  const inputs = r.map("inputs");
  if (inputs) checkInputs(inputs, operation);
  else if (inputsNode === undefined && isOperationName(operation))
    for (const [key, spec] of Object.entries<OperationInputSpec>(OPERATIONS[operation].inputs))
      if (spec.required)
        r.error(codes.missing, `operation ${operation} needs the input "${key}"`, "operation");
  return {
    ...readCommon(r, name),
    kind: "operation",
    operation,
    inputs: inputsNode && isMap(inputsNode) ? (inputsNode.toJSON() as Record<string, unknown>) : {},
  };
};
