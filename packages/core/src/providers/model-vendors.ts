/**
 * The model vendors a team sets access for (Settings → Models), and the base URL each
 * first-party vendor answers at when the team sets none. The web app and the worker read
 * the same list, so a vendor the dashboard offers is one a step can reach.
 */
export const MODEL_VENDORS = ["anthropic", "openai", "gemini", "openai_compatible"] as const;
export type ModelVendor = (typeof MODEL_VENDORS)[number];
/** The vendors with one API endpoint of their own (openai_compatible steps name theirs). */
export type FirstPartyVendor = Exclude<ModelVendor, "openai_compatible">;

export const DEFAULT_MODEL_ENDPOINTS: Readonly<Record<FirstPartyVendor, string>> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
  gemini: "https://generativelanguage.googleapis.com",
};

/** Whether `value` names a model vendor. */
export const isModelVendor = (value: string): value is ModelVendor =>
  (MODEL_VENDORS as readonly string[]).includes(value);

/** The vendor's default endpoint; openai_compatible has none. */
export const defaultModelEndpoint = (vendor: ModelVendor): string | null =>
  vendor === "openai_compatible" ? null : DEFAULT_MODEL_ENDPOINTS[vendor];

/** The base URL a vendor's steps reach: the team's endpoint, else the vendor's default. */
export const modelEndpointOf = (vendor: ModelVendor, endpoint: string | null): string | null =>
  vendor === "openai_compatible" ? null : (endpoint ?? DEFAULT_MODEL_ENDPOINTS[vendor]);
