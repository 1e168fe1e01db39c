/**
 * Lets a server built on the 2025 SDK (the proxy) serve 2026-07-28 clients on the same
 * connection: the stateless revision has no `initialize`, asks `server/discover` what the
 * server offers, puts its protocol version in every request's `_meta`, wants `resultType`
 * (and cache fields on lists) in every result and hears of list changes only on a
 * `subscriptions/listen` stream it opened. The bridge sits between the transport and the
 * server: it answers `server/discover` and `subscriptions/listen` itself, refuses a
 * revision it does not know with -32022, stamps the results of 2026 requests and routes
 * the server's `list_changed` to the subscriptions. 2025 traffic passes through untouched.
 */
import type {
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/sdk/shared/transport.js";
import type {
  Implementation,
  JSONRPCMessage,
  RequestId,
  ServerCapabilities,
} from "@modelcontextprotocol/sdk/types.js";

export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28"];

const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
const SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId";
const UNSUPPORTED_PROTOCOL_VERSION = -32_022;
const CACHEABLE = new Set([
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);
type Change = {
  /** The subscription filter's field that asks for it. */
  field: "toolsListChanged" | "promptsListChanged" | "resourcesListChanged";
  /** The server capability that offers it. */
  capability: "tools" | "prompts" | "resources";
};
/** The change notifications a subscription can ask for. */
const CHANGES: Partial<Record<string, Change>> = {
  "notifications/tools/list_changed": { field: "toolsListChanged", capability: "tools" },
  "notifications/prompts/list_changed": { field: "promptsListChanged", capability: "prompts" },
  "notifications/resources/list_changed": {
    field: "resourcesListChanged",
    capability: "resources",
  },
};

type EraBridgeOptions = {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  /** The revision a request was made in: 2025 ones from `initialize`, 2026 ones from `_meta`. */
  onVersion: (version: string) => void;
};

type Filter = Partial<Record<Change["field"], true>>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The protocol version a request's `_meta` claims, if any. */
const claimOf = (params: unknown): string | undefined => {
  const meta = isObject(params) ? params._meta : undefined;
  const version = isObject(meta) ? meta[PROTOCOL_VERSION_KEY] : undefined;
  return typeof version === "string" ? version : undefined;
};

export const bridgeEras = (inner: Transport, options: EraBridgeOptions): Transport => {
  /** Open 2026 requests, by id: their results get stamped. */
  const modern = new Map<RequestId, string>();
  const subscriptions = new Map<RequestId, Filter>();
  let era: "legacy" | "modern" = "legacy";

  const reply = (id: RequestId, result: Record<string, unknown>) =>
    inner.send({ jsonrpc: "2.0", id, result: stamp("", result) });
  const refuse = (id: RequestId, code: number, message: string, data?: unknown) =>
    inner.send({ jsonrpc: "2.0", id, error: { code, message, ...(data ? { data } : {}) } });
  const stamp = (method: string, result: Record<string, unknown>) => {
    const meta = isObject(result._meta) ? result._meta : {};
    return {
      ...result,
      resultType: result.resultType ?? "complete",
      ...(CACHEABLE.has(method) ? { ttlMs: 0, cacheScope: "private" } : {}),
      _meta: { ...meta, [SERVER_INFO_KEY]: meta[SERVER_INFO_KEY] ?? options.serverInfo },
    };
  };

  const listen = (id: RequestId, params: unknown) => {
    const asked =
      isObject(params) && isObject(params.notifications) ? params.notifications : undefined;
    if (!asked)
      return refuse(
        id,
        -32_602,
        "Invalid params: 'notifications' is required and must be a valid SubscriptionFilter",
      );
    const honored: Filter = {};
    for (const { field, capability } of Object.values(CHANGES) as Change[])
      if (asked[field] === true && options.capabilities[capability]?.listChanged)
        honored[field] = true;
    subscriptions.set(id, honored);
    return inner.send({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: honored, _meta: { [SUBSCRIPTION_ID_KEY]: id } },
    });
  };

  /** Handles what the 2025 server cannot; true when the message is done with. */
  const intercept = (message: JSONRPCMessage): boolean => {
    if (!("method" in message)) return false;
    if (!("id" in message)) {
      // The client ends a subscription by cancelling its listen request.
      const cancelled = message.method === "notifications/cancelled" ? message.params : undefined;
      return isObject(cancelled) && subscriptions.delete(cancelled.requestId as RequestId);
    }
    const { id, method, params } = message;
    const claim = claimOf(params);
    if (method === "initialize") {
      era = "legacy";
      const requested = isObject(params) ? params.protocolVersion : undefined;
      if (typeof requested === "string") options.onVersion(requested);
      return false;
    }
    const unsupported = claim !== undefined && !MODERN_PROTOCOL_VERSIONS.includes(claim);
    const refuseClaim = () =>
      void refuse(id, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", {
        supported: MODERN_PROTOCOL_VERSIONS,
        requested: claim,
      });
    if (method === "server/discover") {
      if (unsupported) refuseClaim();
      else
        void reply(id, {
          supportedVersions: MODERN_PROTOCOL_VERSIONS,
          capabilities: options.capabilities,
          ttlMs: 0,
          cacheScope: "private",
        });
      return true;
    }
    // Without a 2026 claim a request is 2025 traffic.
    if (claim === undefined || claim < MODERN_PROTOCOL_VERSIONS[0]!) return false;
    if (unsupported) {
      refuseClaim();
      return true;
    }
    era = "modern";
    options.onVersion(claim);
    if (method === "subscriptions/listen") {
      void listen(id, params);
      return true;
    }
    modern.set(id, method);
    return false;
  };

  const bridged: Transport = {
    start: () => inner.start(),
    async send(message: JSONRPCMessage, sendOptions?: TransportSendOptions) {
      if ("result" in message && modern.has(message.id)) {
        const method = modern.get(message.id)!;
        modern.delete(message.id);
        return inner.send({ ...message, result: stamp(method, message.result) }, sendOptions);
      }
      if ("error" in message && message.id !== undefined) modern.delete(message.id);
      const notification = "method" in message && !("id" in message) ? message : undefined;
      const field = notification ? CHANGES[notification.method]?.field : undefined;
      if (notification && field && era === "modern") {
        // 2026-07-28 delivers a change only on the streams that asked for it.
        for (const [id, filter] of subscriptions) {
          if (!filter[field]) continue;
          const params = isObject(notification.params) ? notification.params : {};
          const meta = isObject(params._meta) ? params._meta : {};
          await inner.send(
            {
              ...notification,
              params: { ...params, _meta: { ...meta, [SUBSCRIPTION_ID_KEY]: id } },
            },
            sendOptions,
          );
        }
        return;
      }
      return inner.send(message, sendOptions);
    },
    async close() {
      // A graceful end of each subscription: the listen request's (empty) result.
      for (const id of subscriptions.keys())
        await reply(id, { _meta: { [SUBSCRIPTION_ID_KEY]: id } }).catch(() => undefined);
      subscriptions.clear();
      await inner.close();
    },
  };
  inner.onmessage = (message, extra) => {
    if (!intercept(message)) bridged.onmessage?.(message, extra);
  };
  inner.onclose = () => bridged.onclose?.();
  inner.onerror = (error) => bridged.onerror?.(error);
  return bridged;
};
