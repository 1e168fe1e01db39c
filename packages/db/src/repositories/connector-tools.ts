/**
 * The names of the tools each team connector listed when a worker last connected to it, kept
 * so that saving a workflow can refuse a `plugin_tools` entry exposing a tool the connector
 * does not have, before any step starts. A connector never connected to has no list (its
 * tools are checked when a step starts, as they always are).
 */
import type { PrismaClientOrTransaction } from "../transaction";

/**
 * Keeps what the connector `slug` listed now; writes only when it differs from what is kept.
 * A plain statement, so the connector's `updatedAt` stays: the worker's connection pool keys a
 * connection on it, and a changed tool list is no change of the connector's definition.
 */
export const recordConnectorTools = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  slug: string,
  names: readonly string[],
) => {
  const knownTools = [...new Set(names)].sort();
  await db.$executeRaw`UPDATE "Connector" SET "knownTools" = ${knownTools}::text[], "knownToolsAt" = now()
    WHERE "teamId" = ${teamId} AND "slug" = ${slug}
      AND ("knownToolsAt" IS NULL OR "knownTools" IS DISTINCT FROM ${knownTools}::text[])`;
};

/** The tools each of the team's connectors `slugs` last listed; absent when never listed. */
export const connectorKnownTools = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  slugs: readonly string[],
): Promise<Map<string, string[]>> =>
  new Map(
    (
      await db.connector.findMany({
        where: { teamId, slug: { in: [...slugs] }, knownToolsAt: { not: null } },
        select: { slug: true, knownTools: true },
      })
    ).map((c) => [c.slug, c.knownTools]),
  );
