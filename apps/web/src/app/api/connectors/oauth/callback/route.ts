/**
 * Where a connector's authorization server sends the browser back after an OAuth sign-in:
 * completed in the signed-in session of whoever began it, then back to the Connectors page
 * (see server/connectors/connector-oauth.ts).
 */
import { env } from "~/env";
import { auth } from "~/server/auth/auth";
import { connectorOAuthCallback } from "~/server/connectors/connector-oauth";
import { otherMethods } from "~/server/http/other-methods";
import { db, egress, keyring, redis } from "~/server/services";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const session = await auth();
  return connectorOAuthCallback(
    {
      db: db(),
      redis: redis(),
      keyring: keyring(),
      prefix: env().SWITCHYARD_QUEUE_PREFIX,
      egress: egress(),
    },
    session?.user.id,
    new URL(req.url),
  );
}

export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods(["GET"]);
