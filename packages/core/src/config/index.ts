/** Configuration shapes shared by the apps. */
export {
  databaseEnv,
  describeEnvIssues,
  egressEnv,
  masterKeyEnv,
  observabilityEnv,
  redisEnv,
} from "./env-slices";
