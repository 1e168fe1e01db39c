/**
 * The vocabulary of the model gateway: vendors, how a real key is presented upstream, a
 * step's registration, what the meter receives, and the gateway's options. Kept apart so
 * the router, the forwarder and the usage reader share one definition.
 */
import type { EgressAllowList } from "../egress/egress-policy";

/** The API family a registration speaks; it decides paths, token positions and usage format. */
export type Vendor = "anthropic" | "openai" | "gemini";

/** The vendors the model gateway forwards to. */
export const VENDORS: readonly Vendor[] = ["anthropic", "openai", "gemini"];

/**
 * Where the real key goes on the upstream request: `x-api-key` (Anthropic), `bearer`
 * (`Authorization: Bearer`, OpenAI and OpenAI-compatible), `x-goog-api-key` (Gemini),
 * `api-key` (Azure OpenAI).
 */
export type HeaderStyle = "x-api-key" | "bearer" | "x-goog-api-key" | "api-key";

export const HEADER_STYLES: readonly HeaderStyle[] = [
  "x-api-key",
  "bearer",
  "x-goog-api-key",
  "api-key",
];

export const DEFAULT_HEADER_STYLE: Record<Vendor, HeaderStyle> = {
  anthropic: "x-api-key",
  openai: "bearer",
  gemini: "x-goog-api-key",
};

export type Upstream = {
  /**
   * http(s) origin plus optional path prefix. The request path is appended: Anthropic and
   * Gemini bases carry no version (`https://api.anthropic.com`,
   * `https://generativelanguage.googleapis.com`); OpenAI bases carry theirs, as in OpenAI's
   * SDKs (`https://api.openai.com/v1`), and get the path after the client's `/v1`.
   */
  baseUrl: string;
  apiKey: string;
  /** Defaults per vendor (see DEFAULT_HEADER_STYLE). */
  headerStyle?: HeaderStyle;
  /** Fixed headers set on every upstream request (e.g. `openai-organization`); the key goes in `apiKey`. */
  headers?: Record<string, string>;
};

/** Token counts of one response. `inputTokens` includes cached input (read and written). */
export type Usage = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
};

export type MeterEvent = Usage & {
  /** The gateway's id for the request (also sent to the client as `x-switchyard-request-id`). */
  requestId: string;
  /** The vendor's own request id header, when it sent one. */
  upstreamRequestId?: string;
  vendor: Vendor;
  /** The model the response names, else the one the request named; null when neither did. */
  model: string | null;
  /** From the price table; null when it has no price for the model. */
  costUsd: number | null;
  status: number;
  /** False when the response was cut short (client gone, upstream error, revoke, close). */
  complete: boolean;
  /** When the gateway took the request (ms since the epoch), for the request's span. */
  startedAtMs?: number;
};

/** USD per million tokens. Cache prices default to the input price when absent. */
export type ModelPrice = {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
};

export type PriceTable = Readonly<Record<string, ModelPrice>>;

export type RegisterOptions = {
  vendor: Vendor;
  upstream: Upstream;
  /** Called once per model request that reported usage, after its response ended. */
  meter: (event: MeterEvent) => void;
  /** Shown in log lines (e.g. the step id); never secret. */
  label?: string;
  /**
   * Asked before each model request is forwarded: throwing a USER.BUDGET.EXCEEDED AppError
   * refuses it (403 with that code and the error's message), e.g. a step's budget is spent.
   */
  admit?: () => void;
};

export type Registration = {
  /** The per-step credential: give it to the CLI as its API key. */
  token: string;
  /**
   * The base URL the vendor's CLI wants over TCP (OpenAI: with `/v1`), or null when the
   * gateway does not listen on TCP. Behind a loopback forwarder use `stepBaseUrl`.
   */
  baseUrl: string | null;
  /**
   * Refuses the token from now on, ends the registration's requests still in flight, and
   * resolves once their meter calls have been made: none follows.
   */
  revoke(): Promise<void>;
};

export type LogLevel = "info" | "warn" | "error";
export type GatewayLogger = (
  level: LogLevel,
  message: string,
  fields?: Record<string, string | number | boolean | null | undefined>,
) => void;

export type GatewayTimeouts = {
  /** TCP (and TLS) connect to the upstream; past it the client gets 502. */
  connectMs: number;
  /** From sending the request to the upstream's response headers; past it 504. */
  responseMs: number;
  /** Silence while a response body streams; past it both sides are cut. */
  idleMs: number;
};

/** The gateway's upstream timeouts unless GatewayOptions.timeouts says otherwise. */
export const DEFAULT_TIMEOUTS: GatewayTimeouts = {
  connectMs: 10_000,
  responseMs: 10 * 60_000,
  idleMs: 5 * 60_000,
};

/** The largest request body the gateway accepts unless told: 32 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

export type GatewayOptions = {
  /**
   * Listen on 127.0.0.1 (on an ephemeral port unless `port` is given).
   * @default true
   */
  tcp?: boolean | { host?: "127.0.0.1" | "::1"; port?: number };
  /** Also (or only) listen on this unix socket path; it must not exist yet. */
  socketPath?: string;
  /**
   * Mode of the socket file (steps run as other uids; tokens authenticate).
   * @default 0o666
   */
  socketMode?: number;
  /**
   * Request bodies above this get 413.
   * @default DEFAULT_MAX_BODY_BYTES (32 MiB)
   */
  maxBodyBytes?: number;
  timeouts?: Partial<GatewayTimeouts>;
  /** Merged over DEFAULT_PRICES; a key is a model name or a prefix of one. */
  prices?: PriceTable;
  /** Log port. Lines never hold a key or a step token. */
  log?: GatewayLogger;
  /**
   * The egress rule upstream connections obey (the worker's SWITCHYARD_EGRESS_ALLOW): each
   * address is judged as it is connected to. Unset: any upstream (tests of the gateway alone).
   */
  egress?: EgressAllowList;
};
