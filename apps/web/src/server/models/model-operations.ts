/**
 * The team's model access, for the dashboard's procedures and the REST API alike: every
 * member may list it (whether a key is set and its last four characters, never the key);
 * only admins set a vendor's key and endpoint, or openai_compatible's allowed endpoints,
 * and remove a vendor's access. A key is sealed here, bound to the team and vendor, and
 * stored as an envelope; each change commits with its audit entry.
 */
import type { z } from "zod";
import { newCredentialId, sealModelKey, type Keyring } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import {
  MODEL_VENDORS,
  checkModelEndpoint,
  checkModelKey,
  defaultModelEndpoint,
  isModelVendor,
  modelEndpointOf,
  type ModelVendor,
} from "@switchyard/core/models";
import {
  findModelAccess,
  listModelAccess,
  recordAudit,
  removeModelAccess,
  storeModelAccess,
  type Db,
  type ModelAccessRow,
  type Role,
  type SealedModelKey,
} from "@switchyard/db";
import type { modelAccess, setModelAccessBody } from "../contract/models.types";
import { requireRole } from "../trpc/init";

export type ModelActor = { teamId: string; userId: string; role: Role };
export type SetModelAccess = z.infer<typeof setModelAccessBody> & { vendor: string };
type ModelAccess = z.infer<typeof modelAccess>;

const invalid = (path: string, message: string) =>
  new AppError("USER.INPUT.VALIDATION_FAILED", message, { location: { path } });

const vendorOf = (vendor: string): ModelVendor => {
  if (!isModelVendor(vendor))
    throw invalid(
      "vendor",
      `unknown model vendor "${vendor.slice(0, 40)}"; one of ${MODEL_VENDORS.join(", ")}`,
    );
  return vendor;
};

const shown = (vendor: ModelVendor, row: ModelAccessRow | undefined): ModelAccess => ({
  vendor,
  configured: row !== undefined,
  keySet: row?.keySet ?? false,
  keyHint: row?.keyHint ?? null,
  endpoint: row?.endpoint ?? null,
  defaultEndpoint: defaultModelEndpoint(vendor),
  allowedEndpoints: row?.allowedEndpoints ?? [],
  updatedAt: row?.updatedAt.toISOString() ?? null,
});

/** Every vendor, configured or not, in core's order. */
export const listTeamModelAccess = async (db: Db, actor: ModelActor): Promise<ModelAccess[]> => {
  const rows = new Map((await listModelAccess(db, actor.teamId)).map((r) => [r.vendor, r]));
  return MODEL_VENDORS.map((vendor) => shown(vendor, rows.get(vendor)));
};

/** The endpoint and allowed endpoints to store, checked against what the vendor takes. */
const endpointsOf = (
  vendor: ModelVendor,
  input: SetModelAccess,
  stored: ModelAccessRow | undefined,
) => {
  const given = input.endpoint === undefined ? undefined : (input.endpoint ?? "").trim();
  if (vendor === "openai_compatible") {
    if (given)
      throw invalid(
        "endpoint",
        "openai_compatible has no single endpoint: list its allowedEndpoints",
      );
    const allowed =
      input.allowedEndpoints?.map((e, i) => checkModelEndpoint(e, `allowedEndpoints.${i}`)) ??
      stored?.allowedEndpoints ??
      [];
    if (allowed.length === 0)
      throw invalid("allowedEndpoints", "openai_compatible needs at least one allowed endpoint");
    return { endpoint: null, allowedEndpoints: [...new Set(allowed)] };
  }
  if (input.allowedEndpoints !== undefined && input.allowedEndpoints.length > 0) {
    throw invalid(
      "allowedEndpoints",
      `${vendor} has one endpoint: set endpoint (allowedEndpoints are for openai_compatible)`,
    );
  }
  const endpoint =
    given === undefined
      ? (stored?.endpoint ?? null)
      : given === ""
        ? null
        : checkModelEndpoint(given, "endpoint");
  return { endpoint, allowedEndpoints: [] };
};

/** A new key sealed for the team and vendor, null to drop the stored one, undefined to keep it. */
const keyOf = (
  keyring: Keyring,
  teamId: string,
  vendor: ModelVendor,
  input: SetModelAccess,
  stored: ModelAccessRow | undefined,
) => {
  if (input.apiKey === null && vendor !== "openai_compatible")
    throw invalid("apiKey", `${vendor} needs an API key; remove its access instead`);
  if (input.apiKey === undefined && vendor !== "openai_compatible" && !stored?.keySet)
    throw invalid("apiKey", `${vendor} needs an API key`);
  if (input.apiKey === null || input.apiKey === undefined) return input.apiKey;
  const { key, hint } = checkModelKey(input.apiKey);
  const credentialId = newCredentialId();
  const sealed: SealedModelKey = {
    credentialId,
    hint,
    envelope: sealModelKey(keyring, { teamId, credentialId, vendor }, key),
  };
  return sealed;
};

/**
 * Whether the stored key would go somewhere it was not given for: the vendor's endpoint
 * (the default when none is set) is another, or openai_compatible allows an endpoint it did
 * not allow before.
 */
const endpointMoved = (
  vendor: ModelVendor,
  stored: ModelAccessRow,
  next: { endpoint: string | null; allowedEndpoints: string[] },
) => {
  if (vendor === "openai_compatible")
    return next.allowedEndpoints.some((e) => !stored.allowedEndpoints.includes(e));
  return modelEndpointOf(vendor, stored.endpoint) !== modelEndpointOf(vendor, next.endpoint);
};

export const setTeamModelAccess = async (
  db: Db,
  keyring: Keyring,
  actor: ModelActor,
  input: SetModelAccess,
): Promise<ModelAccess> => {
  requireRole("admin", actor.role);
  const vendor = vendorOf(input.vendor);
  const { teamId } = actor;
  const saved = await db.$transaction(async (tx) => {
    const stored = await findModelAccess(tx, teamId, vendor);
    const endpoints = endpointsOf(vendor, input, stored);
    let key = keyOf(keyring, teamId, vendor, input, stored);
    // A key is never sent to an endpoint it was not given for: a new endpoint without a new key drops it.
    const moved =
      key === undefined && stored?.keySet === true && endpointMoved(vendor, stored, endpoints);
    if (moved) key = null;
    const row = await storeModelAccess(tx, { teamId, vendor, ...endpoints, key });
    await recordAudit(tx, {
      teamId,
      actorUserId: actor.userId,
      action: "model_access.set",
      targetType: "model_access",
      targetId: vendor,
      metadata: {
        key: key ? "replaced" : key === null ? "dropped" : "kept",
        ...(moved ? { keyDropped: "endpoint_changed" } : {}),
        ...endpoints,
      },
    });
    return row;
  });
  return shown(vendor, saved);
};

export const removeTeamModelAccess = async (
  db: Db,
  actor: ModelActor,
  input: { vendor: string },
) => {
  requireRole("admin", actor.role);
  const vendor = vendorOf(input.vendor);
  await db.$transaction(async (tx) => {
    await removeModelAccess(tx, { teamId: actor.teamId, vendor });
    await recordAudit(tx, {
      teamId: actor.teamId,
      actorUserId: actor.userId,
      action: "model_access.remove",
      targetType: "model_access",
      targetId: vendor,
    });
  });
  return { vendor };
};
