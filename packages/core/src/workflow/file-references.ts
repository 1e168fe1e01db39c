/**
 * How a workflow names the other files of its bundle: the ones it names literally (a
 * `script_file` or `prompt_file` without `{{ }}`), which validation checks exist and a local
 * run reads before its first step, and the reader that finds a named file, relative to the
 * workflow file's own folder, normalised. Validation at save time and the worker at run
 * time both read through it.
 */
import { posix } from "node:path";
import type { BundleFiles } from "./engine-ports";
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

/** A stored bundle's files, by their path in the bundle, read the way the workflow at `entryPath` names them. */
export const bundleReader = (files: Readonly<Record<string, string>>, entryPath: string): BundleFiles => {
  const dir = posix.dirname(entryPath);
  return { read: (p: string) => files[posix.normalize(posix.join(dir, p))] };
};
