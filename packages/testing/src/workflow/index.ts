export { localRunner, memoryFiles, memoryEventSink, memoryRecorder } from "./local-runner";
export type { MemoryAttempt } from "./local-runner";
export { parseOk, runYaml } from "./run-yaml";
export { deployInputsWorkflow } from "./deploy-inputs";
