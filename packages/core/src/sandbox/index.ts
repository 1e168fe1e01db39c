export { runProcess } from "./run-process";
export type { ProcessResult, RunProcessOptions } from "./run-process";
