/**
 * The worker's side of a team's model access: it holds the master keys, so it opens the
 * vendor's API key an agent step of the team needs. `endpoint` is the team's base URL, null
 * for the vendor's default (modelEndpointOf in @switchyard/core/providers); openai_compatible
 * has none and lists `allowedEndpoints` instead, for checkBaseUrl.
 */
import { openModelKey, type Keyring } from "@switchyard/core/crypto";
import type { ModelVendor } from "@switchyard/core/providers";
import { modelAccessForStep, type Db } from "@switchyard/db";

export type TeamModelAccess = {
  vendor: "anthropic" | "openai" | "gemini" | "openai_compatible";
  endpoint: string | null;
  apiKey: string | undefined;
  allowedEndpoints: string[];
};

/**
 * The team's access to `vendor`, its key opened; undefined when the team set none. Throws
 * SYSTEM.CREDENTIAL_UNREADABLE for a key sealed for another team, row or vendor, and
 * SYSTEM.CREDENTIAL_KEY_MISSING when its master key is not configured.
 */
export const teamModelAccess = async (
  db: Db,
  keyring: Keyring,
  teamId: string,
  vendor: TeamModelAccess["vendor"],
): Promise<TeamModelAccess | undefined> => {
  const stored = await modelAccessForStep(db, teamId, vendor);
  if (!stored) return undefined;
  const apiKey = stored.sealed
    ? openModelKey(
        keyring,
        { teamId, credentialId: stored.sealed.credentialId, vendor },
        stored.sealed.envelope,
      )
    : undefined;
  return { vendor, endpoint: stored.endpoint, apiKey, allowedEndpoints: stored.allowedEndpoints };
};

/** Fails to compile when core's vendor list and this type part ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _vendorsAgree: Same<ModelVendor, TeamModelAccess["vendor"]> = true;
