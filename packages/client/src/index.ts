/**
 * @switchyard/client: a typed client of Switchyard's REST API (/api/v1), its paths and
 * bodies generated from the server's OpenAPI document (api-types.ts), plus what a plain
 * request cannot do well: follow a run's Server-Sent Events, and turn an error answer into
 * one error with the server's code.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./api-types";

export type { components, paths } from "./api-types";

export type SwitchyardClientOptions = {
  /** where the dashboard is served, `https://switchyard.example.com` (no /api/v1) */
  url: string;
  /** an API token, `sy_...` */
  token: string;
  /** another fetch (a proxy's, a test's); the global one by default */
  fetch?: typeof globalThis.fetch;
};

/** The API's base URL for a server URL given with or without /api/v1 and trailing slashes. */
export const apiBaseUrl = (url: string) =>
  `${url.replace(/\/+$/, "").replace(/\/api\/v1$/, "")}/api/v1`;

/**
 * A client of the API as the token's member: `client.GET("/runs/{id}", { params: { path: { id } } })`
 * answers `{ data }` or `{ error }` (the server's `{ error: { code, message, ... } }`), both typed.
 */
export const createSwitchyardClient = (options: SwitchyardClientOptions) =>
  createClient<paths>({
    baseUrl: apiBaseUrl(options.url),
    headers: { authorization: `Bearer ${options.token}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

export type SwitchyardClient = ReturnType<typeof createSwitchyardClient>;

type ErrorBody = components["schemas"]["Error"]["error"];

/** An error answer of the API: its HTTP status and the server's code, message, location and details. */
export class SwitchyardApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly location: ErrorBody["location"];
  readonly details: unknown;

  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.name = "SwitchyardApiError";
    this.status = status;
    this.code = body.code;
    this.location = body.location;
    this.details = body.details;
  }
}

/**
 * The data of an answer, or a SwitchyardApiError for an error answer:
 * `const { runs } = await ok(client.GET("/runs"))`.
 */
export const ok = async <D>(
  answer: Promise<{ data?: D; error?: unknown; response: Response }>,
): Promise<D> => {
  const { data, error, response } = await answer;
  if (response.ok) return data as D;
  const body = (error as { error?: ErrorBody } | undefined)?.error;
  throw new SwitchyardApiError(
    response.status,
    body && typeof body.code === "string"
      ? body
      : {
          code: response.status === 401 ? "UNAUTHORIZED" : "INTERNAL",
          message: `HTTP ${response.status}`,
        },
  );
};

/** One stored event of a run, as its event stream sends it. */
export type RunEvent = {
  seq: number;
  type: string;
  payload: unknown;
  at: string;
};

/** How a run's event stream ended: the run ended (with its status), or the token stopped holding. */
export type RunStreamEnd =
  | { reason: "run_ended"; status: string }
  | { reason: "access_ended"; error: { code: string; message: string } };

export type FollowRunOptions = {
  /** the events after this seq only (0: all) */
  after?: number;
  signal?: AbortSignal;
};

/** The messages of a text/event-stream body, each with its fields (`event`, `data`, `id`). */
const messagesOf = async function* (body: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, "\n");
    let end: number;
    while ((end = buffered.indexOf("\n\n")) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const fields: Record<string, string> = {};
      for (const line of block.split("\n")) {
        if (line === "" || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const name = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        fields[name] = name in fields && name === "data" ? `${fields[name]}\n${value}` : value;
      }
      yield fields;
    }
  }
};

/**
 * Follows a run's events as they happen (GET /runs/{id}/events): yields each stored event in
 * order and returns how the stream ended. A dropped connection is resumed after the last
 * event seen, so no event is yielded twice or skipped.
 */
export const followRunEvents = async function* (
  client: SwitchyardClient,
  runId: string,
  options: FollowRunOptions = {},
): AsyncGenerator<RunEvent, RunStreamEnd> {
  let after = options.after ?? 0;
  for (let dropped = 0; ;) {
    const answer = client.GET("/runs/{id}/events", {
      params: { path: { id: runId }, query: { after } },
      parseAs: "stream",
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const body = (await ok(answer)) as ReadableStream<Uint8Array> | null | undefined;
    if (!body)
      throw new SwitchyardApiError(502, {
        code: "INTERNAL",
        message: "the event stream has no body",
      });
    try {
      for await (const message of messagesOf(body)) {
        if (message.event === "end") return JSON.parse(message.data ?? "{}") as RunStreamEnd;
        if (message.data === undefined) continue;
        const event = JSON.parse(message.data) as RunEvent;
        after = event.seq;
        dropped = 0;
        yield event;
      }
    } catch (error) {
      // A connection reset mid-stream (the read fails) is a drop like a clean close; a
      // follow the caller stopped is not.
      if (options.signal?.aborted || error instanceof SyntaxError) throw error;
    }
    // The stream closed without its end message: the connection dropped. Resume, a few times.
    if (++dropped > 5)
      throw new SwitchyardApiError(503, {
        code: "SYSTEM.INTERNAL",
        message: "the run's event stream keeps closing",
      });
    await new Promise((resolve) => setTimeout(resolve, 500 * dropped));
  }
};
