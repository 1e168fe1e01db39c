export { localRunner, memoryFiles, memoryRecorder, recorder } from "./local-runner";
export type { MemoryAttempt } from "./local-runner";
export { parseOk, runYaml } from "./run-yaml";
