export { RUN_QUEUE, runJobSchema } from "./run-job";
export type { RunJob } from "./run-job";
export { LOCK_LOST, runCancelChannel, runUpdatesChannel, waitAnsweredChannel } from "./run-cancel";
export {
  WORKER_HEARTBEAT_MS,
  WORKER_HEARTBEAT_TTL_S,
  workerHeartbeatKey,
  workerInfoSchema,
} from "./worker-heartbeat";
export type { WorkerInfo } from "./worker-heartbeat";
export { listWorkers } from "./list-workers";
export { statusesBefore } from "./run-transitions";
export {
  CONNECTOR_CALL_QUEUE,
  connectorCallJobSchema,
  connectorCallResultSchema,
} from "./connector-call-job";
export type { ConnectorCallJob, ConnectorCallResult } from "./connector-call-job";
export { RESUME_NOW, TEAM_LIMITED, teamLimitDelayMs } from "./team-run-limit";
