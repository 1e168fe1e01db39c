export { dropStaleTestDatabases, freshDatabase, prepareTemplate } from "./test-database";
export type { TestDatabase } from "./test-database";
export { finishedRun, recordedAttempt } from "./recorded-attempt";
export type { SeededCall } from "./recorded-attempt";
