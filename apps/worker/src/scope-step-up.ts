/**
 * A connector call its server refused with 403 `insufficient_scope`: when the scope it asks
 * for holds something the credential's authorization did not ask for, the credential (the
 * team's or a member's) is marked as needing more access, with that scope, so the next
 * "Connect with OAuth" asks for it, and the call fails with USER.CONNECTOR.NEEDS_MORE_ACCESS.
 * When every scope it asks for was asked for already, asking again would only loop: the call
 * fails with USER.CONNECTOR.SCOPE_REFUSED and nothing is marked (the spec's retry limit).
 * A credential that obtains its own tokens (client credentials, enterprise) asks for a token
 * with the wider scope itself, once, and the call is made again once (retryWithWiderScope);
 * a token set by hand (bearer) can only be replaced: NEEDS_MORE_ACCESS saying so.
 */
import {
  moreAccessRefusal,
  scopeRefusal,
  stepUpDecision,
  tokenScopeRefusal,
} from "@switchyard/core/connectors";
import { insufficientScopeOf } from "@switchyard/core/connectors/host";
import type { AppError } from "@switchyard/core/errors";
import {
  markConnectorCredentialNeedsMoreAccess,
  recordAudit,
  TEAM_OWNER,
  type CredentialForUse,
  type Db,
} from "@switchyard/db";

type Refused = {
  teamId: string;
  slug: string;
  owner: string;
  credential: CredentialForUse;
  /** Who made the call (the run's starter, or the console's caller). */
  actorUserId: string | null;
  runId: string | null;
};

const text = (meta: unknown, key: string) => {
  const v = (meta as Record<string, unknown> | null)?.[key];
  return typeof v === "string" ? v : undefined;
};

/** The refusal to give for `error`, or undefined when it is no scope challenge. */
export const scopeStepUp = async (
  db: Db,
  refused: Refused,
  error: unknown,
): Promise<AppError | undefined> => {
  const challenge = insufficientScopeOf(error);
  if (!challenge) return undefined;
  const { credential, slug } = refused;
  const account = refused.owner === TEAM_OWNER ? "team" : "member";
  if (credential.kind !== "oauth")
    return tokenScopeRefusal(slug, account, challenge.requiredScope ?? "");
  const decision = stepUpDecision(challenge.requiredScope, {
    requested: text(credential.metadata, "requestedScope"),
    granted: text(credential.metadata, "scope"),
  });
  if (decision.kind === "refused") return scopeRefusal(slug, challenge.requiredScope);
  const marked = await markConnectorCredentialNeedsMoreAccess(db, {
    teamId: refused.teamId,
    id: credential.id,
    credentialId: credential.sealed.credentialId,
    requiredScope: decision.scope,
  });
  if (marked)
    await recordAudit(db, {
      teamId: refused.teamId,
      actorUserId: refused.actorUserId ?? "",
      action: "connector.credential.needs_more_access",
      targetType: "connector",
      targetId: slug,
      metadata: {
        runId: refused.runId,
        owner: refused.owner === TEAM_OWNER ? "team" : "member",
        requiredScope: decision.scope,
      },
    });
  return moreAccessRefusal(
    slug,
    refused.owner === TEAM_OWNER ? "team" : "member",
    challenge.requiredScope ?? decision.scope,
  );
};

/** A credential's way to ask for wider tokens: true when `scope` adds to what it asks for (the next token asks for the union). */
export type WidenScope = (scope: string | undefined) => boolean;

/**
 * A call refused with 403 insufficient_scope, on a credential that can `widen` its own
 * tokens: asks for the union and makes the call `again`, once; SCOPE_REFUSED when it asks for
 * nothing new or the server refuses again. Undefined when this is no such case.
 */
export const retryWithWiderScope = async <T>(
  error: unknown,
  widen: WidenScope | undefined,
  slug: string,
  again: () => Promise<T>,
): Promise<{ result: T } | undefined> => {
  const challenge = insufficientScopeOf(error);
  if (!challenge || !widen) return undefined;
  if (!widen(challenge.requiredScope)) throw scopeRefusal(slug, challenge.requiredScope);
  try {
    return { result: await again() };
  } catch (next) {
    const still = insufficientScopeOf(next);
    if (still) throw scopeRefusal(slug, still.requiredScope ?? challenge.requiredScope);
    throw next;
  }
};
