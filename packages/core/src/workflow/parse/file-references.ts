/**
 * How a workflow names the other files of its bundle: the ones it names literally (a
 * `script_file` or `prompt_file` without `{{ }}`, and `readFile` of a literal path in any
 * template or condition, a script's and a prompt file's text included), which validation
 * checks exist and a local run reads before its first step, and the reader that finds a
 * named file, relative to the workflow file's own folder, normalised. Validation at save
 * time and the worker at run time both read through it.
 */
import { posix } from "node:path";
import { isAppError } from "../../errors/app-error";
import type { BundleFiles } from "../model/engine-ports";
import { toText } from "../expression/evaluate-expression";
import type { Expr } from "../expression/expression";
import { expressionsOf, workflowTexts, type WorkflowText } from "./workflow-texts";
import type { SourceRef, Workflow } from "../model/workflow-types";

export type FileReference = {
  /** How the file is named: a state's script_file or prompt_file, or readFile in a template. */
  key: "script_file" | "prompt_file" | "readFile";
  path: string;
  /** Where it is named, the field included in `source.path`. */
  source: SourceRef;
};

/** The literal paths of the readFile calls in an expression, as the engine reads them. */
const readFilePaths = (e: Expr, out: string[] = []): string[] => {
  switch (e.t) {
    case "lit":
    case "path":
      break;
    case "bin":
      readFilePaths(e.l, out);
      readFilePaths(e.r, out);
      break;
    case "not":
      readFilePaths(e.e, out);
      break;
    case "call": {
      const [first] = e.args;
      const path = e.fn === "readFile" && first?.t === "lit" ? toText(first.v).trim() : "";
      if (path !== "") out.push(path);
      for (const a of e.args) readFilePaths(a, out);
      break;
    }
    default: {
      const never: never = e;
      return never;
    }
  }
  return out;
};

const readFilesOf = (text: string, kind: WorkflowText["kind"], source: SourceRef) => {
  try {
    return expressionsOf(text, kind)
      .flatMap((e) => readFilePaths(e))
      .map((path): FileReference => ({ key: "readFile", path, source }));
  } catch (error) {
    // A malformed text reads nothing; the workflow's own checks report it.
    if (isAppError(error)) return [];
    throw error;
  }
};

/** The literal readFile paths of a bundle file's text (a script_file or prompt_file is a template too). */
export const readFileReferences = (text: string, source: SourceRef): FileReference[] =>
  readFilesOf(text, "template", source);

export const literalFileReferences = (wf: Workflow): FileReference[] => {
  const refs: FileReference[] = [];
  for (const state of wf.states.values()) {
    const ref =
      state.kind === "step" && state.scriptFile !== undefined
        ? { key: "script_file" as const, path: state.scriptFile }
        : state.kind === "agent" && state.promptFile !== undefined
          ? { key: "prompt_file" as const, path: state.promptFile }
          : undefined;
    if (ref && !ref.path.includes("{{"))
      refs.push({ ...ref, source: { ...state.source, path: `${state.source.path}.${ref.key}` } });
  }
  for (const t of workflowTexts(wf)) {
    const at = t.state?.state.source;
    refs.push(...readFilesOf(t.text, t.kind, { ...at, path: t.path }));
  }
  return refs;
};

/**
 * Where a bundle's files are, by their normalised path in the bundle: the stored files, or a
 * lookup (the CLI's workflow folder, which refuses what it may not read).
 */
type BundleSource = Readonly<Record<string, string>> | ((bundlePath: string) => string | undefined);

/** A bundle's files read the way the workflow at `entryPath` names them. */
export const bundleReader = (files: BundleSource, entryPath: string): BundleFiles => {
  const dir = posix.dirname(entryPath);
  // Own names only: "constructor" or "__proto__" is no file of a bundle.
  const lookup =
    typeof files === "function"
      ? files
      : (p: string) => (Object.hasOwn(files, p) ? files[p] : undefined);
  const at = (p: string) => posix.normalize(posix.join(dir, p));
  if (typeof files === "function") return { read: (p: string) => lookup(at(p)) };
  return {
    read: (p: string) => lookup(at(p)),
    list: (d: string) => {
      const prefix = `${at(d).replace(/\/+$/, "")}/`;
      return Object.keys(files)
        .filter((f) => f.startsWith(prefix))
        .map((f) => f.slice(prefix.length))
        .sort();
    },
  };
};
