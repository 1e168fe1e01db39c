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

/**
 * Where a bundle's files are, by their normalised path in the bundle: the stored files, or a
 * lookup (the CLI's workflow folder, which refuses what it may not read).
 */
type BundleSource =
  | Readonly<Record<string, string>>
  | ((bundlePath: string) => string | undefined);

/** A bundle's files read the way the workflow at `entryPath` names them. */
export const bundleReader = (files: BundleSource, entryPath: string): BundleFiles => {
  const dir = posix.dirname(entryPath);
  const lookup = typeof files === "function" ? files : (p: string) => files[p];
  return { read: (p: string) => lookup(posix.normalize(posix.join(dir, p))) };
};
