/**
 * Reads workflow YAML into the engine's shape, collecting every problem with its code,
 * YAML path, line and column rather than stopping at the first.
 */
import { LineCounter, parseDocument, isMap, isScalar, type Node, type YAMLMap } from "yaml";
import { AppError } from "../errors/app-error";
import type { State, Workflow } from "./workflow-types";

export type ParseResult = { workflow?: Workflow; errors: AppError[] };

const MAX_SOURCE_BYTES = 1024 * 1024;

export const parseWorkflow = (source: string, file = "workflow.yaml"): ParseResult => {
  const errors: AppError[] = [];
  if (Buffer.byteLength(source) > MAX_SOURCE_BYTES) {
    return {
      errors: [
        new AppError("USER.INPUT_VALIDATION_FAILED", `${file} is larger than 1 MiB`, {
          location: { file },
        }),
      ],
    };
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, uniqueKeys: true });
  const at = (node: Node | null | undefined, path: string) => {
    const offset = node?.range?.[0];
    const pos = offset === undefined ? undefined : lineCounter.linePos(offset);
    return { file, path, line: pos?.line, column: pos?.col };
  };
  const fail = (code: string, message: string, node: Node | null | undefined, path: string) => {
    const location = at(node, path);
    const where = location.line ? `${file}:${location.line}:${location.column}` : file;
    errors.push(new AppError(code, `${where} ${path}: ${message}`, { location }));
  };

  for (const e of doc.errors) {
    const pos = lineCounter.linePos(e.pos[0]);
    errors.push(
      new AppError("WORKFLOW.PARSE_ERROR", `${file}:${pos.line}:${pos.col} ${e.message}`, {
        location: { file, line: pos.line, column: pos.col },
      }),
    );
  }
  if (errors.length > 0) return { errors };

  const root = doc.contents;
  if (!isMap(root)) {
    fail("WORKFLOW.VALIDATION_FAILED", "a workflow must be a mapping", root, "$");
    return { errors };
  }
  const str = (map: YAMLMap, key: string): string | undefined => {
    const v = map.get(key, true);
    if (!isScalar(v)) return undefined;
    const value: unknown = v.value;
    return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : undefined;
  };
  const name = str(root, "name");
  if (!name) fail("WORKFLOW.VALIDATION_FAILED", "`name` is required", root, "name");

  const statesNode = root.get("states", true);
  if (!isMap(statesNode)) {
    fail("WORKFLOW.VALIDATION_FAILED", "`states` must be a mapping", statesNode ?? root, "states");
    return { errors };
  }
  const initial = str(statesNode, "initial");
  if (!initial) fail("WORKFLOW.VALIDATION_FAILED", "`states.initial` is required", statesNode, "states.initial");

  const states = new Map<string, State>();
  for (const pair of statesNode.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : "";
    if (key === "initial") continue;
    const path = `states.${key}`;
    const node = pair.value;
    if (!isMap(node)) {
      fail("WORKFLOW.VALIDATION_FAILED", "a state must be a mapping", node as Node, path);
      continue;
    }
    const type = str(node, "type");
    if (type === "step") {
      const command = str(node, "command");
      if (!command) fail("WORKFLOW.VALIDATION_FAILED", "a step needs `command`", node, `${path}.command`);
      const timeout = str(node, "timeout");
      states.set(key, {
        kind: "step",
        name: key,
        command: command ?? "",
        onSuccess: str(node, "on_success"),
        onFailure: str(node, "on_failure"),
        continueOnError: str(node, "continue_on_error") === "true",
        timeoutMs: timeout ? parseDuration(timeout) : undefined,
      });
    } else if (type === "terminal") {
      const status = str(node, "status") ?? "success";
      if (status !== "success" && status !== "failure") {
        fail("WORKFLOW.VALIDATION_FAILED", "`status` must be success or failure", node, `${path}.status`);
      }
      states.set(key, {
        kind: "terminal",
        name: key,
        status: status === "failure" ? "failure" : "success",
        message: str(node, "message"),
      });
    } else {
      fail("WORKFLOW.VALIDATION_FAILED", `unknown state type ${JSON.stringify(type)}`, node, `${path}.type`);
    }
  }
  if (initial && !states.has(initial)) {
    fail("WORKFLOW.VALIDATION_FAILED", `initial state "${initial}" does not exist`, statesNode, "states.initial");
  }
  for (const state of states.values()) {
    if (state.kind !== "step") continue;
    for (const [field, target] of [
      ["on_success", state.onSuccess],
      ["on_failure", state.onFailure],
    ] as const) {
      if (target && !states.has(target)) {
        fail(
          "WORKFLOW.VALIDATION_FAILED",
          `target state "${target}" does not exist`,
          statesNode.get(state.name, true),
          `states.${state.name}.${field}`,
        );
      }
    }
  }
  if (errors.length > 0 || !name || !initial) return { errors };
  return {
    workflow: { name, description: str(root, "description") ?? "", lane: str(root, "lane"), initial, states },
    errors,
  };
};

const parseDuration = (text: string): number | undefined => {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = m[2] ?? "s";
  const factor = unit === "ms" ? 1 : unit === "s" ? 1000 : unit === "m" ? 60_000 : 3_600_000;
  return n * factor;
};
