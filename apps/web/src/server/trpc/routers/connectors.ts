import {
  beginOAuthInput,
  beginOAuthResponse,
  callToolInput,
  callToolResponse,
  connectorIdInput,
  connectorList,
  connectorListing,
  createConnectorBody,
  credentialResponse,
  removeConnectorResponse,
  revokeCredentialInput,
  revokeCredentialResponse,
  setCredentialInput,
  setUpCuratedInput,
  updateConnectorInput,
} from "../../contract/connectors.types";
import {
  connectorRulesOf,
  createTeamConnector,
  listTeamConnectors,
  removeTeamConnector,
  revokeTeamConnectorCredential,
  setConnectorCredential,
  setUpCuratedConnector,
  updateTeamConnector,
} from "../../connectors/connector-operations";
import { callConnectorTool } from "../../connectors/connector-console";
import { beginConnectorOAuth } from "../../connectors/connector-oauth";
import { egressOr } from "../../egress";
import { router, teamProcedure } from "../init";

/**
 * The team's connectors: any member lists them (never a credential) and connects their own
 * account where a connector uses each member's; admins add, change, set up and remove
 * connectors, set the team's credential, and call a tool by hand. Connecting over OAuth
 * begins here and completes at /api/connectors/oauth/callback.
 */
export const connectorsRouter = router({
  list: teamProcedure.output(connectorList).query(({ ctx }) => listTeamConnectors(ctx.db, ctx)),
  create: teamProcedure
    .input(createConnectorBody)
    .output(connectorListing)
    .mutation(async ({ ctx, input }) => createTeamConnector(ctx.db, ctx, input, await connectorRulesOf(ctx.db, egressOr(ctx.egress)))),
  setUp: teamProcedure
    .input(setUpCuratedInput)
    .output(connectorListing)
    .mutation(async ({ ctx, input }) => setUpCuratedConnector(ctx.db, ctx, input, await connectorRulesOf(ctx.db, egressOr(ctx.egress)))),
  update: teamProcedure
    .input(updateConnectorInput)
    .output(connectorListing)
    .mutation(async ({ ctx, input }) => updateTeamConnector(ctx.db, ctx, input, await connectorRulesOf(ctx.db, egressOr(ctx.egress)))),
  remove: teamProcedure
    .input(connectorIdInput)
    .output(removeConnectorResponse)
    .mutation(({ ctx, input }) => removeTeamConnector(ctx.db, ctx, input)),
  setCredential: teamProcedure
    .input(setCredentialInput)
    .output(credentialResponse)
    .mutation(({ ctx, input }) => setConnectorCredential(ctx.db, ctx.keyring(), ctx, input)),
  revokeCredential: teamProcedure
    .input(revokeCredentialInput)
    .output(revokeCredentialResponse)
    .mutation(({ ctx, input }) => revokeTeamConnectorCredential(ctx.db, ctx, input)),
  callTool: teamProcedure
    .input(callToolInput)
    .output(callToolResponse)
    .mutation(async ({ ctx, input }) => callConnectorTool({ db: ctx.db, redis: ctx.redis(), prefix: ctx.queuePrefix, rules: await connectorRulesOf(ctx.db, egressOr(ctx.egress)) }, ctx, input)),
  beginOAuth: teamProcedure
    .input(beginOAuthInput)
    .output(beginOAuthResponse)
    .mutation(({ ctx, input }) => beginConnectorOAuth({ db: ctx.db, redis: ctx.redis(), keyring: ctx.keyring(), prefix: ctx.queuePrefix, egress: egressOr(ctx.egress) }, ctx, input)),
});
