/**
 * The AWF guide's examples as fixtures (fixtures/awf-guide/): their file names, their text
 * and the template library of their templates/ folder, for the corpus and engine tests.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { libraryOf } from "../template-library";

const GUIDE_DIR = path.join(import.meta.dirname, "../fixtures/awf-guide");
const TEMPLATES_DIR = path.join(GUIDE_DIR, "templates");

const yamlIn = (folder: string) => readdirSync(folder).filter((f) => f.endsWith(".yaml"));

/** The workflow fixtures' file names. */
export const guideWorkflows = yamlIn(GUIDE_DIR);
/** The template fixtures' file names (each `<name>.yaml`). */
export const guideTemplateFiles = yamlIn(TEMPLATES_DIR);

export const guideSource = (file: string) => readFileSync(path.join(GUIDE_DIR, file), "utf8");
export const guideTemplateSource = (file: string) =>
  readFileSync(path.join(TEMPLATES_DIR, file), "utf8");

/** The templates as `use_template` finds them, from `.awf/templates/`. */
export const guideLibrary = libraryOf(
  guideTemplateFiles.map((f) => ({
    name: f.replace(/\.yaml$/, ""),
    source: guideTemplateSource(f),
    file: `.awf/templates/${f}`,
  })),
);
