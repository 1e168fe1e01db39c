/**
 * An OAuth grant stored as a connector's team credential, sealed as the web app's callback
 * stores it, for tests that hand a grant to the worker without playing the browser again.
 */
import { grantToJson } from "@switchyard/core/connectors";
import type { Keyring } from "@switchyard/core/crypto";
import { TEAM_OWNER } from "@switchyard/db";
import { storeSealedCredential } from "~/server/connectors/connector-operations";
import type { SeededDatabase } from "./seeded-database";

export const storeTeamGrant = (
  seeded: SeededDatabase,
  keyring: Keyring,
  id: string,
  grant: Parameters<typeof grantToJson>[0],
) =>
  storeSealedCredential(
    seeded.db,
    keyring,
    { teamId: seeded.teamId, userId: seeded.adminId, role: "owner" },
    {
      id,
      owner: TEAM_OWNER,
      kind: "oauth",
      value: grantToJson(grant),
      fingerprint: "0123456789ab",
      expiresAt: grant.tokens.expiresAt ?? null,
    },
  );
