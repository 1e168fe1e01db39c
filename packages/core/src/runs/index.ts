export { RUN_QUEUE, runJobSchema } from "./run-job";
export type { RunJob } from "./run-job";
export { runCancelChannel } from "./run-cancel";
