/**
 * The worker's outbound requests made on a team's behalf, each kind with its own limits and
 * all under one egress rule (SWITCHYARD_EGRESS_ALLOW): OAuth token refreshes, http
 * connectors, notifications, openai_compatible model endpoints and workflows' operation
 * states (http.request, notify.send's webhook, the GitHub API). The model gateway's
 * upstream connections obey the same rule (given the list itself).
 */
import {
  createEgressFetch,
  EGRESS_PROFILES,
  type EgressAllowList,
  type EgressFetch,
  type EgressProfile,
} from "@switchyard/core/egress";

export type WorkerEgress = { list: EgressAllowList } & Record<EgressProfile, EgressFetch>;

export const workerEgress = (list: EgressAllowList): WorkerEgress => ({
  list,
  oauth: createEgressFetch(list, EGRESS_PROFILES.oauth),
  connector: createEgressFetch(list, EGRESS_PROFILES.connector),
  notification: createEgressFetch(list, EGRESS_PROFILES.notification),
  model: createEgressFetch(list, EGRESS_PROFILES.model),
  operation: createEgressFetch(list, EGRESS_PROFILES.operation),
});

/** Closes every connection the worker's egress fetches hold. */
export const closeEgress = async (egress: WorkerEgress) => {
  await Promise.all([
    egress.oauth.close(),
    egress.connector.close(),
    egress.notification.close(),
    egress.model.close(),
    egress.operation.close(),
  ]);
};
