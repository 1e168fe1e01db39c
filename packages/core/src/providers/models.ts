/**
 * The model vendors and the checks of a team's model access, without the agent-running code
 * of `@switchyard/core/providers` (processes, sandbox): what the web app needs.
 */
export {
  DEFAULT_MODEL_ENDPOINTS,
  MODEL_VENDORS,
  defaultModelEndpoint,
  isModelVendor,
  modelEndpointOf,
} from "./model-vendors";
export type { FirstPartyVendor, ModelVendor } from "./model-vendors";
export { checkModelEndpoint, checkModelKey } from "./model-access-input";
