/**
 * Switchyard's OAuth client metadata document, public: an authorization server that takes
 * such documents fetches it to learn who the client is and where it may send the browser
 * back (see server/connectors/client-metadata.ts).
 */
import { callbackUrl } from "~/server/connectors/connector-oauth";
import { clientMetadataAnswer } from "~/server/connectors/client-metadata";
import { errorAnswer } from "~/server/http/api-answer";
import { otherMethods } from "~/server/http/other-methods";

export const dynamic = "force-dynamic";

export async function GET() {
  // A misconfigured instance (no AUTH_URL) answers with the project's error, not a bare 500.
  return clientMetadataAnswer(callbackUrl).catch((error: unknown) =>
    errorAnswer(error, "client metadata document"),
  );
}

export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods(["GET"]);
