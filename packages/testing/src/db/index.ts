export { dropStaleTestDatabases, freshDatabase, prepareTemplate } from "./test-database";
export type { TestDatabase } from "./test-database";
export { EDITING_CALLS, finishedRun, recordedAttempt } from "./recorded-attempt";
