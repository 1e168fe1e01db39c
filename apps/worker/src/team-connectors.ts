/**
 * A step's connectors in the worker, resolved before the agent starts: each connector the
 * step names must exist, be enabled and be open to the run's lane (the lane policy); its
 * credential is the team's or, for a connector used with each member's own account, the
 * account of whoever started the run, opened here and nowhere else. The connector runs in
 * the worker's pool (one live client per connector and credential), reached by the step
 * through an adapter that names connectors by their ids and asks the database again at
 * every call, so disabling a connector, removing a lane or revoking a credential stops
 * calls in running steps. A tool an admin switched off for the lane is neither listed nor
 * callable. An OAuth grant is refreshed by one worker at a time (its credential row locked),
 * the others taking what it stored. Every credential value joins the run's scrubber; a
 * credential's use is written as its last use and one audit entry per step, never its value.
 * A long call its server runs as an MCP task is polled here and kept (connector-tasks.ts).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { context } from "@opentelemetry/api";
import { buildStepCatalog, McpConnectorHost } from "@switchyard/core/connectors/host";
import {
  connectorCommandRefusal,
  grantCoversUrl,
  needsCredential,
  OAuthTokenSource,
  parseConnectorDefinition,
  reconnectRefusal,
  toConnectorSpec,
  toolAllowed,
  usesCrossAppAccess,
  type ConnectorDefinition,
  type ConnectorHost,
  grantFromJson,
  grantSecrets,
  grantToJson,
  type OAuthTokenSet,
} from "@switchyard/core/connectors";
import {
  openConnectorCredential,
  sealConnectorCredential,
  type Keyring,
} from "@switchyard/core/crypto";
import type { FetchLike } from "@switchyard/core/egress";
import { AppError } from "@switchyard/core/errors";
import { mayReachConnector } from "@switchyard/core/policy";
import type { StepConnectors } from "@switchyard/core/providers";
import type { Scrubber } from "@switchyard/core/secrets";
import {
  connectorCredentialForUse,
  connectorDefinitionOf,
  connectorNow,
  type ConnectorNow,
  connectorsBySlug,
  markConnectorCredentialNeedsReconnect,
  markConnectorCredentialUsed,
  recordAudit,
  recordConnectorTools,
  resealConnectorCredential,
  TEAM_OWNER,
  withConnectorCredentialLocked,
  type CredentialForUse,
  type Db,
} from "@switchyard/db";
import { openCrossAppAccess } from "./cross-app-access-credential";
import { clientCredentialsResolver } from "./client-credentials";
import {
  ELICITATION_CALL_MARGIN_MS,
  elicitThroughWaits,
  type ElicitationAsker,
} from "./elicitation-waits";
import { connectorTaskJournal, poolId, watchStepConnectorTasks } from "./connector-tasks";
import { grantScrubbers, type GrantScrubbers } from "./grant-scrubbers";
import { retryWithWiderScope, scopeStepUp, type WidenScope } from "./scope-step-up";
import type { Logger } from "./logger";
import { connectorCallContext } from "./tracing";

/** A credential as the pool asks for it: its current value, and word that the server refused one. */
/** How long the connector the gate read stays the call's own (a held call reads it again). */
const GATE_FRESH_MS = 100;

type CredentialResolver = {
  resolve: () => Promise<string | undefined>;
  rejected?: (value: string) => void;
  /** A credential that obtains its own tokens: ask for a wider scope (scope-step-up.ts). */
  widen?: WidenScope;
};

/** How the pool reaches credentials: per pool id, the resolver of the step that last defined it. */
export type WorkerConnectors = {
  pool: McpConnectorHost;
  resolvers: Map<string, CredentialResolver>;
  /** The worker's egress fetch for OAuth: token refreshes obey the egress rule. */
  oauthFetch: FetchLike;
  /** The scrubbers of the live steps using each OAuth grant: a refreshed token reaches all of them. */
  scrubbers: GrantScrubbers;
  /** Whether a stdio connector may run a command from outside the connectors folder (the instance's setting). */
  allowAnyCommand: () => Promise<boolean>;
};

type PoolOptions = Omit<
  NonNullable<ConstructorParameters<typeof McpConnectorHost>[0]>,
  "credentials" | "connectors"
>;

/** The worker's one pool of connectors, whose credentials come from the step that last defined each. */
export const createWorkerConnectors = (
  options: PoolOptions & { allowAnyCommand: () => Promise<boolean>; oauthFetch: FetchLike },
): WorkerConnectors => {
  const { allowAnyCommand, oauthFetch, ...pool } = options;
  const resolvers = new Map<string, CredentialResolver>();
  return {
    resolvers,
    scrubbers: grantScrubbers(),
    oauthFetch,
    allowAnyCommand,
    pool: new McpConnectorHost({
      ...pool,
      credentials: {
        resolve: async (id) => resolvers.get(id)?.resolve(),
        rejected: (id, value) => resolvers.get(id)?.rejected?.(value),
      },
    }),
  };
};

type StepConnectorsInput = {
  db: Db;
  keyring: Keyring;
  log: Logger;
  connectors: WorkerConnectors;
  scrubber: Scrubber;
  teamId: string;
  /** The run the step belongs to; null for a call made by hand in the console. */
  runId: string | null;
  lane: string;
  /** Who started the run: member connectors use their account. */
  starterId: string | null;
  slugs: readonly string[];
  /** Connectors of which the step sees only these tools (`plugin_tools`). */
  expose?: Readonly<Record<string, readonly string[]>>;
  stateName: string;
  /**
   * Where a connector server's form during a call goes (a wait for a person): how long it
   * waits, the attempt it belongs to, and who is told; without it forms are cancelled.
   */
  elicitation?: Pick<
    ElicitationAsker,
    "waitMs" | "stepRunId" | "askedById" | "onWaitOpened" | "waitWakers" | "pollMs"
  >;
};

const notConnected = (def: ConnectorDefinition, owner: string) =>
  new AppError(
    "USER.CONNECTOR.NOT_CONNECTED",
    owner === TEAM_OWNER
      ? `connector "${def.id}" has no credential: an admin connects it on the Connectors page`
      : `connector "${def.id}" uses each member's own account, and the member who started this run has not connected theirs: connect it on the Connectors page, then start the run again`,
  );

/** Opens a credential: an API key as it is, an OAuth grant as a token source that refreshes and re-seals itself. */
const credentialResolver = (
  input: StepConnectorsInput,
  def: ConnectorDefinition,
  owner: string,
  stored: CredentialForUse,
) => {
  const { db, keyring, teamId } = input;
  const sealedFor = { teamId, credentialId: stored.sealed.credentialId, connector: def.id, owner };
  const value = openConnectorCredential(keyring, sealedFor, stored.sealed.envelope);
  if (def.transport === "http" && def.auth === "client_credentials") {
    input.scrubber.add(value);
    const { connectors } = input;
    return clientCredentialsResolver(
      { ...input, fetch: connectors.oauthFetch, scrubbers: connectors.scrubbers },
      def,
      stored,
      value,
    );
  }
  if (stored.kind !== "oauth") {
    input.scrubber.add(value);
    return { secrets: [value], resolver: { resolve: () => Promise.resolve(value) } };
  }
  const grant = grantFromJson(value);
  // A grant is for the server it was made with: never sent to another the connector now names.
  if (def.transport !== "http" || !grantCoversUrl(grant, def.url)) {
    void markConnectorCredentialNeedsReconnect(db, stored.id, "destination_changed").catch(
      () => undefined,
    );
    throw reconnectRefusal(
      def.id,
      "destination_changed",
      `its OAuth grant is for ${grant.server.resource}, and it now reaches ${def.transport === "http" ? def.url : `the command ${def.command}`}; nothing was sent`,
    );
  }
  const secrets = grantSecrets(grant);
  for (const s of secrets) input.scrubber.add(s);
  // Whichever step's source the pool holds refreshes for all of them: every live one learns the tokens.
  const learn = (tokens: OAuthTokenSet) =>
    input.connectors.scrubbers.learn(stored.id, grantSecrets({ ...grant, tokens }));
  const source = new OAuthTokenSource({
    server: grant.server,
    client: grant.client,
    tokens: grant.tokens,
    connectorName: def.name,
    fetch: input.connectors.oauthFetch,
    // Stored by `exclusive`, under the row lock.
    onTokens: learn,
    // One worker at a time refreshes the grant; the next takes what it stored.
    exclusive: (work) =>
      withConnectorCredentialLocked(
        db,
        { teamId, id: stored.id, credentialId: stored.sealed.credentialId },
        async (tx, envelope) => {
          // Revoked or connected again since this step opened it: its old refresh token is not
          // tried (a refusal would mark the new grant), and the step is told to reconnect.
          if (!envelope)
            throw new AppError(
              "USER.CONNECTOR.NEEDS_RECONNECT",
              `the authorization of connector "${def.name}" changed while the step ran: the next run uses the new one`,
            );
          const held = grantFromJson(openConnectorCredential(keyring, sealedFor, envelope)).tokens;
          learn(held);
          const tokens = await work(held);
          if (tokens.accessToken !== held.accessToken)
            await resealConnectorCredential(tx, {
              teamId,
              id: stored.id,
              sealed: {
                credentialId: stored.sealed.credentialId,
                envelope: sealConnectorCredential(
                  keyring,
                  sealedFor,
                  grantToJson({ ...grant, tokens }),
                ),
              },
              expiresAt: tokens.expiresAt ?? null,
            });
          return tokens;
        },
      ),
    onFailed: async (reason) => {
      input.log.warn("a connector's OAuth grant could not be refreshed", {
        connector: def.id,
        reason,
      });
      await markConnectorCredentialNeedsReconnect(db, stored.id, "refresh_refused", {
        teamId,
        credentialId: stored.sealed.credentialId,
      });
    },
  });
  return {
    secrets,
    resolver: {
      resolve: () => source.resolve(),
      rejected: (token: string) => source.invalidate(token),
    },
  };
};

/** An enterprise connector: the starter's access, granted through the IdP from their sign-in (nothing stored). */
const openEnterpriseConnector = async (
  input: StepConnectorsInput,
  def: Parameters<typeof openCrossAppAccess>[0]["def"],
  row: { slug: string; updatedAt: Date },
  secrets: string[],
  joined: (() => void)[],
) => {
  const { teamId, connectors } = input;
  const owner = input.starterId ?? "-";
  const id = poolId(teamId, row.slug, owner);
  // Steps of the member's runs share the pooled connection and whichever token it holds:
  // each must scrub every token any of them obtains.
  const grant = `idp/${id}`;
  joined.push(connectors.scrubbers.join(grant, input.scrubber));
  const credential = await openCrossAppAccess({
    learn: (obtained) => connectors.scrubbers.learn(grant, obtained),
    db: input.db,
    keyring: input.keyring,
    teamId,
    userId: input.starterId,
    def,
    fetch: connectors.oauthFetch,
    scrubber: input.scrubber,
  });
  secrets.push(...credential.secrets);
  connectors.resolvers.set(id, credential.resolver);
  connectors.pool.define({
    ...toConnectorSpec(def),
    id,
    version: `${row.updatedAt.getTime()}/idp`,
  });
  await recordAudit(input.db, {
    teamId,
    actorUserId: input.starterId ?? "",
    action: "connector.credential.use",
    targetType: "connector",
    targetId: row.slug,
    metadata: {
      runId: input.runId,
      state: input.stateName,
      owner: "member",
      grantedBy: def.idp_issuer,
    },
  });
  return { def, owner, credentialId: undefined };
};

/** A call's forms go to a person through waits, when the step says where. */
const elicitOptions = (input: StepConnectorsInput, connector: string, tool: string) => {
  const asks = input.elicitation;
  if (!asks) return {};
  return {
    elicit: elicitThroughWaits(
      {
        ...asks,
        db: input.db,
        log: input.log,
        scrubber: input.scrubber,
        teamId: input.teamId,
        lane: input.lane,
        runId: input.runId,
        state: input.runId === null ? undefined : input.stateName,
      },
      { connector, tool },
    ),
    elicitMs: asks.waitMs + ELICITATION_CALL_MARGIN_MS,
  };
};

/**
 * The step's connectors, or undefined when it names none. Throws the lane policy's refusal,
 * USER.CONNECTOR.NOT_CONNECTED or USER.CONNECTOR.NEEDS_RECONNECT before anything starts.
 */
export const openStepConnectors = async (
  input: StepConnectorsInput,
): Promise<StepConnectors | undefined> => {
  if (input.slugs.length === 0) return undefined;
  /** The grants this step joined (their refreshed tokens reach its scrubber), left when it ends or fails to open. */
  const joined: (() => void)[] = [];
  const leave = () => {
    for (const left of joined.splice(0)) left();
  };
  try {
    return await resolveStepConnectors(input, joined, leave);
  } catch (error) {
    leave();
    throw error;
  }
};

const resolveStepConnectors = async (
  input: StepConnectorsInput,
  joined: (() => void)[],
  leave: () => void,
): Promise<StepConnectors> => {
  const { db, teamId, lane, connectors } = input;
  const rows = new Map((await connectorsBySlug(db, teamId, input.slugs)).map((r) => [r.slug, r]));
  const defs = new Map<
    string,
    { def: ConnectorDefinition; owner: string; credentialId: string | undefined }
  >();
  const secrets: string[] = [];
  for (const slug of input.slugs) {
    const row = rows.get(slug);
    const refused = mayReachConnector(row, slug, lane);
    if (refused) throw refused;
    const def = parseConnectorDefinition(connectorDefinitionOf(row!));
    // Saved while any command was allowed, perhaps: the rule as it is now decides.
    if (def.transport === "stdio") {
      const refused = connectorCommandRefusal(
        { ...def, credentialEnv: def.credential_env },
        { allowAnyCommand: await connectors.allowAnyCommand() },
      );
      if (refused)
        throw new AppError(refused.code, `connector "${slug}" cannot start: ${refused.message}`, {
          location: refused.location,
        });
    }
    if (usesCrossAppAccess(def)) {
      defs.set(slug, await openEnterpriseConnector(input, def, row!, secrets, joined));
      continue;
    }
    const owner = def.credential_mode === "member" ? input.starterId : TEAM_OWNER;
    if (owner === null) throw notConnected(def, "member");
    const stored = needsCredential(def)
      ? await connectorCredentialForUse(db, { teamId, slug, owner })
      : undefined;
    if (needsCredential(def) && !stored) throw notConnected(def, owner);
    if (stored?.status === "needs_reconnect") throw reconnectRefusal(slug, stored.reconnectReason);
    const id = poolId(teamId, slug, owner);
    if (stored) {
      joined.push(connectors.scrubbers.join(stored.id, input.scrubber));
      const credential = credentialResolver(input, def, owner, stored);
      secrets.push(...credential.secrets);
      connectors.resolvers.set(id, credential.resolver);
    } else connectors.resolvers.delete(id);
    connectors.pool.define({
      ...toConnectorSpec(def),
      id,
      version: `${row!.updatedAt.getTime()}/${stored?.sealed.credentialId ?? "-"}`,
    });
    defs.set(slug, { def, owner, credentialId: stored?.id });
    if (stored) {
      await markConnectorCredentialUsed(db, stored.id);
      await recordAudit(db, {
        teamId,
        actorUserId: input.starterId ?? "",
        action: "connector.credential.use",
        targetType: "connector",
        targetId: slug,
        metadata: {
          runId: input.runId,
          state: input.stateName,
          owner: owner === TEAM_OWNER ? "team" : "member",
        },
      });
    }
  }

  // Resolved under the attempt's span: each call continues that trace (connectorCallContext).
  const stepContext = context.active();

  const stepEnded = new AbortController();

  /**
   * The connector as the gate last read it: the call that follows within GATE_FRESH_MS (it
   * was not held for a person meanwhile) takes it instead of reading it again.
   */
  let gated: { slug: string; at: number; row: ConnectorNow | undefined } | undefined;
  const connectorForCall = (slug: string) =>
    gated?.slug === slug && performance.now() - gated.at < GATE_FRESH_MS
      ? Promise.resolve(gated.row)
      : connectorNow(db, teamId, slug);
  /** The gate asks the database at every call: enabled, and open to the lane. */
  const gate = {
    allows: async (slug: string, asked: string) => {
      const row = await connectorNow(db, teamId, slug);
      gated = { slug, at: performance.now(), row };
      return !mayReachConnector(row, slug, asked);
    },
  };
  const entryOf = (slug: string) => {
    const entry = defs.get(slug);
    if (!entry)
      throw new AppError(
        "USER.MCP_PROXY.UNKNOWN_CONNECTOR",
        `connector "${slug}" is not one of this step's`,
      );
    return entry;
  };
  const host: ConnectorHost = {
    listTools: async (slug, signal) => {
      const { def, owner } = entryOf(slug);
      const tools = await connectors.pool.listTools(poolId(teamId, slug, owner), signal);
      // What it lists is what saving checks plugin_tools against; not keeping it fails nothing.
      await recordConnectorTools(
        db,
        teamId,
        slug,
        tools.map((t) => t.name),
      ).catch((e: unknown) =>
        input.log.warn("could not keep a connector's tool list", {
          connector: slug,
          error: e instanceof Error ? e.message : String(e),
        }),
      );
      return tools.filter((t) => toolAllowed(def, lane, t.name));
    },
    callTool: async (slug, tool, args, signal, trace): Promise<CallToolResult> => {
      const { def, owner, credentialId } = entryOf(slug);
      // The allow-list as stored now: an admin who switches a tool off stops it in running steps.
      const row = await connectorForCall(slug);
      const current = row ? parseConnectorDefinition(connectorDefinitionOf(row)) : def;
      if (!toolAllowed(current, lane, tool))
        return {
          isError: true,
          content: [
            {
              type: "text",
              text: `tool "${tool}" of connector "${slug}" is switched off for lane "${lane}"`,
            },
          ],
        };
      let now: CredentialForUse | undefined;
      if (credentialId) {
        now = await connectorCredentialForUse(db, { teamId, slug, owner });
        if (!now)
          return {
            isError: true,
            content: [{ type: "text", text: `the credential of connector "${slug}" was revoked` }],
          };
        // Its destination changed (or its grant ended) since the step started: not one more call.
        if (now.status === "needs_reconnect") {
          const refusal = reconnectRefusal(slug, now.reconnectReason);
          return {
            isError: true,
            content: [{ type: "text", text: `[${refusal.code}] ${refusal.message}` }],
          };
        }
      }
      // A long call its server runs as a task is kept, so the same call made again follows it.
      const journal = await connectorTaskJournal(db, input.scrubber, {
        teamId,
        runId: input.runId,
        stateName: input.stateName,
        connectorSlug: slug,
        owner,
        tool,
        args,
      });
      const call = () =>
        context.with(connectorCallContext(stepContext, trace), () =>
          connectors.pool.callToolAsTask(
            poolId(teamId, slug, owner),
            tool,
            args,
            journal,
            signal,
            elicitOptions(input, slug, tool),
          ),
        );
      const result = await call().catch(async (error: unknown) => {
        const widen = connectors.resolvers.get(poolId(teamId, slug, owner))?.widen;
        const widened = await retryWithWiderScope(error, widen, slug, call);
        if (widened) return widened.result;
        const refusal =
          now &&
          (await scopeStepUp(
            db,
            {
              teamId,
              slug,
              owner,
              credential: now,
              actorUserId: input.starterId,
              runId: input.runId,
            },
            error,
          ));
        throw refusal ?? error;
      });
      if (credentialId) void markConnectorCredentialUsed(db, credentialId).catch(() => undefined);
      // With the run's scrubber, which also knows tokens refreshed since the step started.
      return input.scrubber.scrubValue(result);
    },
    close: () => {
      stepEnded.abort(new Error("the step ended"));
      leave();
      return Promise.resolve();
    },
  };
  const { catalog, unavailable } = await buildStepCatalog({
    host,
    gate,
    lane,
    connectors: input.slugs,
    ...(input.expose ? { expose: input.expose } : {}),
  });
  for (const u of unavailable)
    input.log.warn("a connector of the step is unavailable", {
      connector: u.connector,
      reason: input.scrubber.scrub(u.reason),
    });
  // A connector's own first tools, where its server has them (a name it no longer lists is skipped).
  const initialTools = catalog
    .filter((e) => defs.get(e.connector)?.def.initial_tools.includes(e.tool))
    .map((e) => e.name);
  // Tasks an earlier attempt of the step left open (its worker died) are followed from now
  // on, until the step ends.
  if (input.runId !== null)
    void watchStepConnectorTasks(
      { db, log: input.log, pool: connectors.pool, scrubber: input.scrubber },
      { teamId, runId: input.runId, stateName: input.stateName },
      stepEnded.signal,
    );
  return { host, gate, lane, catalog, secrets, initialTools };
};
