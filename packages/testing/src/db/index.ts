export { dropStaleTestDatabases, freshDatabase, prepareTemplate } from "./test-database";
export type { TestDatabase } from "./test-database";
