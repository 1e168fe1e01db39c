/** Configuration shapes shared by the apps. */
export { databaseEnv, describeEnvIssues, masterKeyEnv, observabilityEnv, redisEnv } from "./env-slices";
