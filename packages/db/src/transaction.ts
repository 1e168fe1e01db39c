/**
 * What a repository writes through: the client, or a transaction the caller opened, so a
 * change and what records it (an audit entry, a status) commit or roll back together.
 */
import type { Prisma, PrismaClient } from "./generated/prisma/client";

export type PrismaClientOrTransaction = PrismaClient | Prisma.TransactionClient;
