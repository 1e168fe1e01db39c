/**
 * Opens one MCP client of the connector host over a transport, in the protocol era its
 * server speaks: 2026-07-28 (stateless, no `initialize`) when a `server/discover` probe
 * finds it or an earlier connect's verdict says so, else the 2025 `initialize` handshake.
 * It returns the era found, for the host to pass as the next connect's `prior` (no probe
 * then), and on 2026-07-28 the `subscriptions/listen` stream list changes come on, which
 * the 2025 revisions send unsolicited instead.
 */
import {
  Client,
  InsufficientScopeError,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type ElicitRequest,
  type ElicitResult,
  type McpSubscription,
  type PriorDiscovery,
  type RequestId,
  type Transport,
} from "@modelcontextprotocol/client";

type ConnectClientOptions = {
  transport: Transport;
  /** The era an earlier connect found; without it the client probes. */
  prior?: PriorDiscovery;
  timeoutMs: number;
  probeTimeoutMs: number;
  /** Ends the attempt: the probe heeds no signal, so the transport is closed instead. */
  deadline: AbortSignal;
  onToolsChanged: () => void;
  /** A server's `elicitation/create` (form mode): the client advertises the capability and asks this. */
  onElicit: (
    request: ElicitRequest["params"],
    context: { requestId: RequestId; signal: AbortSignal },
  ) => Promise<ElicitResult>;
};

type ConnectedClient = {
  client: Client;
  era: PriorDiscovery;
  /** On 2026-07-28, when the server offers list changes: the stream they come on. */
  changes?: McpSubscription;
};

const UNSUPPORTED_PROTOCOL_VERSION = -32_022;

/**
 * Who the client says it is, and what it takes (raw requests send the same in their
 * envelope). Form mode only: a URL-mode request is refused by the client itself.
 */
export const SWITCHYARD_CLIENT = { name: "switchyard", version: "0.1.0" };
export const SWITCHYARD_CAPABILITIES = { elicitation: { form: {} } };

export const sdkCode = (error: unknown): SdkErrorCode | undefined =>
  error instanceof SdkError ? error.code : undefined;

/** A server's 403 `insufficient_scope` challenge behind `error`: the scope it asks for (maybe none). */
export const insufficientScopeOf = (
  error: unknown,
  depth = 0,
): { requiredScope?: string } | undefined => {
  if (error instanceof InsufficientScopeError)
    return error.requiredScope ? { requiredScope: error.requiredScope } : {};
  // The SDK may wrap it (a failed connect), as may the pool (a cause).
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause && depth < 3 ? insufficientScopeOf(cause, depth + 1) : undefined;
};

/** A probe on a stdio server's own pipe failed as a legacy server fails it: closed on it, or no answer. */
export const probeRefused = (error: unknown): boolean =>
  sdkCode(error) === SdkErrorCode.EraNegotiationFailed ||
  sdkCode(error) === SdkErrorCode.RequestTimeout;

/** The server does not speak the era the connection was opened in (a stale verdict, most likely). */
export const eraMismatch = (error: unknown): boolean =>
  sdkCode(error) === SdkErrorCode.InvalidResult ||
  sdkCode(error) === SdkErrorCode.UnsupportedResultType ||
  sdkCode(error) === SdkErrorCode.MethodNotSupportedByProtocolVersion ||
  (error instanceof ProtocolError && error.code === UNSUPPORTED_PROTOCOL_VERSION);

export const connectClient = async (options: ConnectClientOptions): Promise<ConnectedClient> => {
  const { transport, prior, timeoutMs: timeout, deadline } = options;
  const client = new Client(SWITCHYARD_CLIENT, {
    capabilities: SWITCHYARD_CAPABILITIES,
    versionNegotiation: { mode: "auto", probe: { timeoutMs: options.probeTimeoutMs } },
    listChanged: {
      tools: { autoRefresh: false, debounceMs: 0, onChanged: () => options.onToolsChanged() },
    },
  });
  client.setRequestHandler("elicitation/create", (request, ctx) =>
    options.onElicit(request.params, { requestId: ctx.mcpReq.id, signal: ctx.mcpReq.signal }),
  );
  try {
    deadline.throwIfAborted();
    await Promise.race([
      client.connect(transport, { timeout, signal: deadline, ...(prior ? { prior } : {}) }),
      new Promise<never>((_, reject) =>
        deadline.addEventListener("abort", () => reject(deadline.reason as Error), { once: true }),
      ),
    ]);
  } catch (error) {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    throw error;
  }
  const modern = client.getProtocolEra() === "modern";
  // A connect from a prior verdict opens no listen stream of its own.
  const changes =
    client.autoOpenedSubscription ??
    (modern && client.getServerCapabilities()?.tools?.listChanged
      ? await client.listen({ toolsListChanged: true }, { timeout }).catch(() => undefined)
      : undefined);
  const discover = client.getDiscoverResult();
  return {
    client,
    era: modern && discover ? { kind: "modern", discover } : { kind: "legacy" },
    ...(changes ? { changes } : {}),
  };
};
