/**
 * Request and response shapes of the team's model access (Settings → Models), shared by
 * the tRPC procedures, the REST routes and the generated OpenAPI document. A key goes in
 * and never comes out: answers say whether one is set and its last four characters.
 */
import { z } from "zod";
import { MODEL_VENDORS } from "@switchyard/core/models";
import { operation } from "./operation";

export const modelVendor = z.enum(MODEL_VENDORS);

/** PUT /models/{vendor}: the body (the vendor is in the path). A field left out keeps its stored value. */
export const setModelAccessBody = z.object({
  apiKey: z
    .string()
    .max(4096)
    .nullable()
    .optional()
    .describe(
      "write-only; replaces the stored key. null drops it (openai_compatible only: the others need one)",
    ),
  endpoint: z
    .string()
    .max(2048)
    .nullable()
    .optional()
    .describe(
      "base URL (https, or http on loopback); null or empty: the vendor's default. Not for openai_compatible",
    ),
  allowedEndpoints: z
    .array(z.string().max(2048))
    .max(32)
    .optional()
    .describe(
      "openai_compatible only, at least one: base URLs a step's options.base_url must fall under",
    ),
});
/** models.set: the vendor and what to set. */
export const setModelAccessInput = setModelAccessBody.extend({ vendor: modelVendor });
export const modelVendorInput = z.object({ vendor: modelVendor });

export const modelAccess = z.object({
  vendor: modelVendor,
  configured: z.boolean().describe("whether the team set access for this vendor"),
  keySet: z.boolean(),
  keyHint: z
    .string()
    .nullable()
    .describe("the key's last four characters; the key is never returned"),
  endpoint: z.string().nullable().describe("the team's base URL; null: the vendor's default"),
  defaultEndpoint: z
    .string()
    .nullable()
    .describe("the vendor's own base URL; null for openai_compatible"),
  allowedEndpoints: z.array(z.string()),
  updatedAt: z.string().nullable().describe("ISO 8601; null when not configured"),
});
/** models.list: every vendor, configured or not, in MODEL_VENDORS order. */
export const modelAccessList = z.array(modelAccess);
export const listModelsResponse = z.object({ models: modelAccessList });
export const modelAccessResponse = modelAccess;
export const removeModelAccessResponse = z.object({ vendor: modelVendor });

export const modelOperations = {
  list: operation({
    kind: "query",
    access: "team",
    output: modelAccessList,
    rest: {
      method: "GET",
      path: "/models",
      summary:
        "How the team's agent steps reach each model vendor: endpoints, and whether a key is set with its last four characters (never the key)",
      status: 200,
      description: "Every vendor, configured or not",
      wrap: "models",
      response: listModelsResponse,
    },
  }),
  set: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: setModelAccessInput,
    output: modelAccessResponse,
    rest: {
      method: "PUT",
      path: "/models/{vendor}",
      summary:
        "Admins: set a vendor's API key (write-only) and endpoint, or openai_compatible's allowed endpoints; fields left out keep their value",
      body: setModelAccessBody,
      status: 200,
      description: "The vendor's access as stored",
    },
  }),
  remove: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: modelVendorInput,
    output: removeModelAccessResponse,
    rest: {
      method: "DELETE",
      path: "/models/{vendor}",
      summary: "Admins: remove a vendor's access, and its key with it",
      status: 200,
      description: "Removed",
    },
  }),
};
