/**
 * The bundle files a workflow names literally (a `script_file` or `prompt_file` without
 * `{{ }}`): what validation checks exists, and what a local run reads before its first step.
 */
import type { SourceRef, Workflow } from "./workflow-types";

export type FileReference = { key: "script_file" | "prompt_file"; path: string; source: SourceRef };

export const literalFileReferences = (wf: Workflow): FileReference[] => {
  const refs: FileReference[] = [];
  for (const state of wf.states.values()) {
    const ref =
      state.kind === "step" && state.scriptFile !== undefined
        ? { key: "script_file" as const, path: state.scriptFile }
        : state.kind === "agent" && state.promptFile !== undefined
          ? { key: "prompt_file" as const, path: state.promptFile }
          : undefined;
    if (ref && !ref.path.includes("{{")) refs.push({ ...ref, source: state.source });
  }
  return refs;
};
