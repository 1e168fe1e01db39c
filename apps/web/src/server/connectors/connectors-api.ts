/**
 * What runs each connector operation (contract/connectors.types.ts), on both surfaces.
 * Connecting over OAuth begins here and completes at /api/connectors/oauth/callback.
 */
import { connectorOperations } from "../contract/connectors.types";
import { implement, type Services } from "../api/implement";
import { egressOr } from "../egress";
import { setConnectorClientSecretOf } from "./connector-client-secret";
import { callConnectorTool } from "./connector-console";
import { beginConnectorOAuth } from "./connector-oauth";
import {
  connectorRulesOf,
  createTeamConnector,
  listTeamConnectors,
  removeTeamConnector,
  revokeTeamConnectorCredential,
  setConnectorCredential,
  setUpCuratedConnector,
  updateTeamConnector,
} from "./connector-operations";

const rulesOf = ({ db, egress }: Services) => connectorRulesOf(db, egressOr(egress));

export const connectorsApi = implement(connectorOperations, {
  list: ({ db, caller }) => listTeamConnectors(db, caller),
  create: async (ctx, input) => createTeamConnector(ctx.db, ctx.caller, input, await rulesOf(ctx)),
  setUp: async (ctx, input) => setUpCuratedConnector(ctx.db, ctx.caller, input, await rulesOf(ctx)),
  update: async (ctx, input) => updateTeamConnector(ctx.db, ctx.caller, input, await rulesOf(ctx)),
  remove: ({ db, caller }, input) => removeTeamConnector(db, caller, input),
  setCredential: ({ db, keyring, caller, egress }, input) =>
    setConnectorCredential(db, keyring(), caller, input, egressOr(egress).oauth),
  revokeCredential: ({ db, caller }, input) => revokeTeamConnectorCredential(db, caller, input),
  setClientSecret: ({ db, keyring, caller, egress }, input) =>
    setConnectorClientSecretOf(db, keyring(), caller, input, egressOr(egress).oauth),
  callTool: async (ctx, input) =>
    callConnectorTool(
      { db: ctx.db, redis: ctx.redis(), prefix: ctx.prefix, rules: await rulesOf(ctx) },
      ctx.caller,
      input,
    ),
  beginOAuth: (ctx, input) =>
    beginConnectorOAuth(
      {
        db: ctx.db,
        redis: ctx.redis(),
        keyring: ctx.keyring(),
        prefix: ctx.prefix,
        egress: egressOr(ctx.egress),
      },
      ctx.caller,
      input,
    ),
});
