/**
 * Opens a Prisma client over the pg driver adapter (no native query engine).
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";

export type Db = PrismaClient;

export const createDb = (databaseUrl: string, options: { max?: number } = {}): Db =>
  new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl, max: options.max ?? 10 }),
  });
