export { createTestDatabase, prepareTemplate, dropStaleTestDatabases } from "./test-database";
export type { TestDatabase } from "./test-database";
