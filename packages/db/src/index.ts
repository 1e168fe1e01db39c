export { createDb } from "./client";
export type { Db } from "./client";
export * from "./repositories/bundle-store";
export * from "./repositories/workflows";
export * from "./repositories/runs";
export * from "./repositories/members";
export type { Role, RunStatus, StepStatus, RunTrigger } from "./generated/prisma/client";
export { seed } from "./seed";
export type { SeedOptions } from "./seed";
