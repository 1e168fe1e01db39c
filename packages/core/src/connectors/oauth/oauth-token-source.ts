/**
 * The worker's view of one OAuth connection: `resolve()` hands out the access token and
 * refreshes it first when it expires within a minute. Concurrent callers share one refresh;
 * callers in other processes take turns through `exclusive` (the worker locks the credential
 * row), each first taking what the one before stored. A rotated refresh token replaces the
 * old one and every new token set goes to `onTokens`. When the authorization server refuses the refresh the
 * grant is gone: every later call fails with USER.CONNECTOR.NEEDS_RECONNECT, and
 * `onFailed` is told once. An outage of the server is retryable and changes nothing.
 */
import { refreshAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import { AppError } from "../../errors";
import type { FetchLike, OAuthClientInfo, OAuthServerInfo, OAuthTokenSet } from "./oauth-types";
import { oauthRefusal, sdkClient, toTokenSet, unreachable } from "./oauth-wire";

type OAuthTokenSourceOptions = {
  server: OAuthServerInfo;
  client: OAuthClientInfo;
  tokens: OAuthTokenSet;
  /** Receives every refreshed token set: to seal and store it, unless `exclusive` stores it. */
  onTokens: (tokens: OAuthTokenSet) => void | Promise<void>;
  /** Told once, with the reason, when the grant can no longer be refreshed. */
  onFailed?: (reason: string) => void | Promise<void>;
  /** Names the connector in error messages. */
  connectorName?: string;
  now?: () => number;
  /** The egress fetch the token endpoint is called with. */
  fetch: FetchLike;
  /**
   * How long before expiry a token is refreshed.
   * @default 60_000 (60 s)
   */
  refreshMarginMs?: number;
  /**
   * The token set as stored now: asked before giving up on a refused refresh, since another
   * process holding the same grant may have rotated the refresh token first.
   */
  reload?: () => Promise<OAuthTokenSet | undefined>;
  /**
   * Holds the grant alone, across processes, while `work` runs: `work` gets the token set
   * as stored once held (undefined when none is) and answers the one to keep, which
   * `exclusive` stores before letting go. Without it a refresh asks `reload` first.
   */
  exclusive?: (
    work: (stored: OAuthTokenSet | undefined) => Promise<OAuthTokenSet>,
  ) => Promise<OAuthTokenSet>;
};

/** The authorization server refused to refresh (or there is nothing to refresh with). */
class RefreshRefused extends Error {
  constructor(
    readonly reason: string,
    readonly refreshToken?: string,
    override readonly cause?: unknown,
  ) {
    super(reason);
  }
}

export class OAuthTokenSource {
  private current: OAuthTokenSet;
  private refreshing: Promise<OAuthTokenSet> | undefined;
  private failure: AppError | undefined;
  /** An access token the server refused before its expiry: the next resolve refreshes. */
  private refused: string | undefined;
  private readonly now: () => number;

  constructor(private readonly options: OAuthTokenSourceOptions) {
    this.current = options.tokens;
    this.now = options.now ?? Date.now;
  }

  /** The token set in use (after any refresh). */
  get tokens(): OAuthTokenSet {
    return this.current;
  }

  /**
   * The server refused `accessToken` (a 401) before it expired, revoked or rotated on its
   * side: unless it has been replaced already, the next resolve refreshes it.
   */
  invalidate(accessToken: string): void {
    if (this.current.accessToken === accessToken) this.refused = accessToken;
  }

  async resolve(): Promise<string> {
    if (this.failure) throw this.failure;
    const expiresAt = this.current.expiresAt?.getTime();
    const margin = this.options.refreshMarginMs ?? 60_000;
    const refused = this.refused === this.current.accessToken;
    if (!refused && (expiresAt === undefined || expiresAt - this.now() > margin))
      return this.current.accessToken;
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = undefined;
    });
    return (await this.refreshing).accessToken;
  }

  private async refresh(): Promise<OAuthTokenSet> {
    const { exclusive } = this.options;
    try {
      if (exclusive) return await exclusive((stored) => this.refreshFrom(stored));
      // Another worker holding the same grant may have refreshed it already: take what it stored.
      return await this.refreshFrom(await this.options.reload?.().catch(() => undefined));
    } catch (error) {
      if (!(error instanceof RefreshRefused)) throw error;
      // Rotated meanwhile by a process that does not take turns: carry on with what it stored.
      const rotated = exclusive ? undefined : await this.options.reload?.().catch(() => undefined);
      if (rotated?.refreshToken && rotated.refreshToken !== error.refreshToken) {
        this.current = rotated;
        if (this.usable(rotated)) return rotated;
      }
      return this.fail(error.reason, error.cause);
    }
  }

  /** A refresh from the token set as stored now: none when that is already fresh. */
  private async refreshFrom(stored: OAuthTokenSet | undefined): Promise<OAuthTokenSet> {
    const { server, client } = this.options;
    if (stored && stored.accessToken !== this.current.accessToken) {
      this.current = stored;
      if (this.usable(stored)) return stored;
    }
    const refreshToken = this.current.refreshToken;
    if (!refreshToken)
      throw new RefreshRefused("the access token expired and there is no refresh token");
    const asked = this.now();
    const answer = await refreshAuthorization(server.issuer, {
      metadata: server.metadata,
      clientInformation: sdkClient(client),
      refreshToken,
      resource: server.resource,
      fetchFn: this.options.fetch,
    }).catch((error: unknown) => {
      const refusal = oauthRefusal(error);
      if (!refusal)
        throw unreachable(`refreshing the token of ${this.label()} at ${server.issuer}`, error);
      throw new RefreshRefused(
        `the authorization server refused the refresh (${refusal})`,
        refreshToken,
        error,
      );
    });
    const next = toTokenSet(answer, asked, {
      refreshToken,
      ...(this.current.scope !== undefined ? { scope: this.current.scope } : {}),
    });
    this.current = next;
    await this.options.onTokens(next);
    return next;
  }

  /** Fresh beyond the margin, and not refused by the server. */
  private usable(tokens: OAuthTokenSet): boolean {
    const expiresAt = tokens.expiresAt?.getTime();
    const fresh =
      expiresAt === undefined || expiresAt - this.now() > (this.options.refreshMarginMs ?? 60_000);
    return fresh && this.refused !== tokens.accessToken;
  }

  private label() {
    return this.options.connectorName
      ? `connector "${this.options.connectorName}"`
      : "the connector";
  }

  private async fail(reason: string, cause?: unknown): Promise<never> {
    this.failure = new AppError(
      "USER.CONNECTOR.NEEDS_RECONNECT",
      `the authorization of ${this.label()} has ended: reconnect the connector (${reason})`,
      { details: { reason }, ...(cause === undefined ? {} : { cause }) },
    );
    await this.options.onFailed?.(reason);
    throw this.failure;
  }
}
