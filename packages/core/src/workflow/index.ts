/**
 * The public surface of `@switchyard/core/workflow`: parsing and validation, the run
 * engine and its ports, and the expression and template helpers the editor reuses.
 */
export { parseWorkflow, DEFAULT_LIMITS } from "./parse/parse-workflow";
export type { ParseResult } from "./parse/parse-workflow";
export { runWorkflow } from "./engine/run-workflow";
export { runAgentAttempt } from "./engine/execute-action";
export { conversationSessionKey } from "./engine/session-key";
export type { RenderedAgentRequest } from "./engine/execute-action";
export { freshCheckpoint } from "./engine/fresh-checkpoint";
export { realClock } from "./engine/real-clock";
export { parseExpression } from "./expression/expression";
export { evaluate, truthy, toText } from "./expression/evaluate-expression";
export { parseTemplate, renderTemplate, renderShell } from "./expression/template";
export type * from "./model/engine-ports";
export type * from "./model/workflow-types";
export { validateWorkflow } from "./parse/validate-workflow";
export { bundleReader, literalFileReferences } from "./parse/file-references";
export type { FileReference } from "./parse/file-references";
export type { ConnectorCatalog } from "./parse/validate-workflow";
export { resolveInputs } from "./engine/resolve-inputs";
export { envNamesOf } from "./parse/env-names";
export { checkStartInputs, missingRequiredInputs } from "./engine/inputs-at-start";
export { readTemplateFile } from "./parse/read-template";
export type { TemplateParameter } from "./parse/read-template";
export { bundleTemplates, libraryOf, templateNameOf, TEMPLATE_DIR } from "./parse/template-library";
export type { TemplateLibrary } from "./parse/template-library";
export { checkSkillFile } from "./skills/check-skill-file";
export { bundleSkillDir, loadSkill, SKILL_LIBRARY_DIR } from "./skills/find-skill";
