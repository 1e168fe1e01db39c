/**
 * Where a workflow's `use_template` names are looked up: a library of template files by
 * name. The server builds one from the team's templates (or a saved version's pinned
 * copies), `switchyard run` from the `.awf/templates/` folder next to the workflow.
 */
import { posix } from "node:path";

type TemplateSource = {
  name: string;
  /** the template file's YAML */
  source: string;
  /** where the file is, for messages: `.awf/templates/ai-analyze.yaml` */
  file: string;
  /** the team library's version number, when it came from there */
  version?: number;
};

export type TemplateLibrary = {
  find(name: string): TemplateSource | undefined;
  names(): string[];
};

/** A version's bundle keeps the templates it pinned here, as AWF keeps local templates. */
export const TEMPLATE_DIR = ".awf/templates";

const TEMPLATE_FILE = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)\.ya?ml$/;

/** The name a template file in `.awf/templates/` is found by, or undefined for another file. */
export const templateNameOf = (path: string): string | undefined => {
  const dir = posix.dirname(posix.normalize(path));
  if (dir !== TEMPLATE_DIR) return undefined;
  return TEMPLATE_FILE.exec(posix.basename(path))?.[1];
};

/** A library of the given template files (a bundle's, a folder's), by file name as AWF finds them. */
export const libraryOf = (sources: readonly TemplateSource[]): TemplateLibrary => {
  const byName = new Map<string, TemplateSource>();
  for (const t of sources) if (!byName.has(t.name)) byName.set(t.name, t);
  return { find: (name) => byName.get(name), names: () => [...byName.keys()].sort() };
};

/** The templates a bundle carries under `.awf/templates/`: those a saved version pinned. */
export const bundleTemplates = (files: Readonly<Record<string, string>>): TemplateLibrary =>
  libraryOf(
    Object.entries(files).flatMap(([file, source]) => {
      const name = templateNameOf(file);
      return name ? [{ name, source, file }] : [];
    }),
  );

/** No templates: every `use_template` is reported as not found. */
export const NO_TEMPLATES: TemplateLibrary = { find: () => undefined, names: () => [] };
