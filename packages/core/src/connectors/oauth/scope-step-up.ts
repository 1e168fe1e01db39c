/**
 * Scope step-up (MCP authorization, "scope challenge handling"): a server that refuses a call
 * with 403 `insufficient_scope` names the scope it wants. A new authorization is worth asking
 * a person for only when that scope holds something the last authorization did not already ask
 * for; otherwise asking again would loop (the spec's retry limit), so the refusal stands.
 */
import { AppError } from "../../errors";

/** The scopes of space-separated scope strings, once each, in first-seen order. */
export const scopeUnion = (...scopes: (string | null | undefined)[]): string =>
  [...new Set(scopes.flatMap((s) => (s ?? "").split(" ")).filter((s) => s !== ""))].join(" ");

/**
 * What to do about a server asking for `required`, given the scope the credential's last
 * authorization asked for and the one it was granted: `reauthorize` with the union, or
 * `refused` when every required scope was already asked for.
 */
export const stepUpDecision = (
  required: string | undefined,
  asked: { requested?: string | null; granted?: string | null },
): { kind: "reauthorize"; scope: string } | { kind: "refused" } => {
  const had = new Set(scopeUnion(asked.requested, asked.granted).split(" "));
  const wanted = scopeUnion(required)
    .split(" ")
    .filter((s) => s !== "");
  if (wanted.length === 0 || wanted.every((s) => had.has(s))) return { kind: "refused" };
  return { kind: "reauthorize", scope: scopeUnion(asked.requested, asked.granted, required) };
};

/** A call refused for want of scope: the credential now says it needs more access. */
export const moreAccessRefusal = (connector: string, account: "team" | "member", scope: string) =>
  new AppError(
    "USER.CONNECTOR.NEEDS_MORE_ACCESS",
    `connector "${connector}" needs more access: its server asks for the scope "${scope}" for this call. ${
      account === "team" ? "An admin reconnects it" : "Reconnect your account"
    } on the Connectors page, which asks for that scope too, then try the call again`,
    { details: { requiredScope: scope } },
  );

/** A call still refused for a scope its authorization already asked for: asking again would loop. */
export const scopeRefusal = (connector: string, scope: string | undefined) =>
  new AppError(
    "USER.CONNECTOR.SCOPE_REFUSED",
    `the server of connector "${connector}" refuses this call for want of the scope "${scope ?? ""}", which its authorization already asked for: the account may not hold that permission at the service. Switchyard does not ask for the same scope again`,
    { details: { requiredScope: scope ?? null } },
  );

/** A call refused for want of scope on a connector whose token was set by hand (bearer): only a new token helps. */
export const tokenScopeRefusal = (connector: string, account: "team" | "member", scope: string) =>
  new AppError(
    "USER.CONNECTOR.NEEDS_MORE_ACCESS",
    `the token set for connector "${connector}" lacks the scope "${scope}" its server asks for this call: ${
      account === "team" ? "an admin sets" : "set"
    } a token that has it on the Connectors page, then try the call again`,
    { details: { requiredScope: scope } },
  );
