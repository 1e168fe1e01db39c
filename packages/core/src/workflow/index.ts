/**
 * The public surface of `@switchyard/core/workflow`: parsing and validation, the run
 * engine and its ports, and the expression and template helpers the editor reuses.
 */
export { parseWorkflow, DEFAULT_LIMITS } from "./parse-workflow";
export type { ParseResult } from "./parse-workflow";
export { runWorkflow } from "./run-workflow";
export { freshCheckpoint } from "./fresh-checkpoint";
export { realClock } from "./real-clock";
export { parseExpression } from "./expression";
export { evaluate, truthy, toText } from "./evaluate-expression";
export { parseTemplate, renderTemplate, renderShell } from "./template";
export type * from "./engine-ports";
export type * from "./workflow-types";
export { validateWorkflow } from "./validate-workflow";
export { bundleReader, literalFileReferences } from "./file-references";
export type { FileReference } from "./file-references";
export type { ConnectorCatalog } from "./validate-workflow";
export { resolveInputs } from "./resolve-inputs";
export { envNamesOf } from "./env-names";
export { checkStartInputs } from "./inputs-at-start";
