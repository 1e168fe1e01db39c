/**
 * Whose call a server's form (`elicitation/create`) belongs to, on one pooled connection
 * that several runs' calls share. A form is routed only when the wire says whose it is:
 * over streamable HTTP, the POST stream it came on names the `tools/call` (or
 * `tasks/result`) it relates to; a form of a task names the task in its `_meta`
 * (`io.modelcontextprotocol/related-task`). A form that says neither goes to the one
 * call in flight when there is exactly one (and no task is being followed); anything
 * else is whose-is-it guesswork, and the form is cancelled instead.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import {
  isJSONRPCRequest,
  RELATED_TASK_META_KEY,
  type ElicitResult,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from "@modelcontextprotocol/client";
import type { FetchLike } from "./oauth/oauth-types";

/** Asks a person a server's form during one tool call; the answer goes back to the server. */
export type ElicitHandler = (
  request: { message: string; requestedSchema: Record<string, unknown> },
  signal: AbortSignal,
) => Promise<ElicitResult>;

/** A call in flight whose requests a server's forms may relate to. */
export type FormCall = {
  /** Who answers its forms; without one its forms are cancelled. */
  elicit?: ElicitHandler | undefined;
  /** Aborted when the call ends or is given up: its forms are closed with it. */
  ended: AbortController;
  /** The JSON-RPC ids of its requests on the wire. */
  ids: RequestId[];
};

/** Where a form goes: a call, or why it went nowhere. */
type FormRoute = { call: FormCall } | { refused: string };

/** The call being made in this async context: its requests are recorded as they are sent. */
const current = new AsyncLocalStorage<FormCall>();

/** The methods whose requests a server may ask a form during. */
const ASKING_METHODS = new Set(["tools/call", "tasks/result"]);

/** A new call; `signal` (the caller's) ends it too. */
export const formCall = (elicit: ElicitHandler | undefined, signal?: AbortSignal): FormCall => {
  const ended = new AbortController();
  if (signal) {
    if (signal.aborted) ended.abort();
    else signal.addEventListener("abort", () => ended.abort(), { once: true });
  }
  return { elicit, ended, ids: [] };
};

/** The JSON-RPC id of the one request a POST body carries, if it is one. */
const requestIdOf = (body: unknown): RequestId | undefined => {
  if (typeof body !== "string") return undefined;
  try {
    const message = JSON.parse(body) as unknown;
    return isJSONRPCRequest(message) ? (message as { id: RequestId }).id : undefined;
  } catch {
    return undefined;
  }
};

export class FormRouter {
  /** Calls in flight, by the JSON-RPC id of each of their requests. */
  private readonly calls = new Map<RequestId, FormCall>();
  /** A server request's id, to the id of the client request whose POST stream it came on. */
  private readonly related = new Map<RequestId, RequestId>();
  /** Calls following a task, by its id. */
  private readonly tasks = new Map<string, FormCall>();

  /** Runs `make` as `call`: the requests it sends are the call's until `make` settles. */
  async within<T>(call: FormCall, make: () => Promise<T>): Promise<T> {
    try {
      return await current.run(call, make);
    } finally {
      for (const id of call.ids) this.calls.delete(id);
      call.ids.length = 0;
    }
  }

  /** Marks `call` as following task `taskId` (its forms name the task) until the returned function is called. */
  following(taskId: string, call: FormCall): () => void {
    this.tasks.set(taskId, call);
    return () => {
      if (this.tasks.get(taskId) === call) this.tasks.delete(taskId);
    };
  }

  /** Records each request a call sends, by its JSON-RPC id. */
  watch(transport: Transport): Transport {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const call = current.getStore();
      if (call && isJSONRPCRequest(message) && ASKING_METHODS.has(message.method)) {
        this.calls.set(message.id, call);
        call.ids.push(message.id);
      }
      return send(message, options);
    };
    return transport;
  }

  /**
   * A fetch that notes, for each request the server sends on the stream answering one of
   * the client's POSTs, which client request that was. The stream itself passes unchanged.
   */
  tap(fetch: FetchLike): FetchLike {
    return async (url, init) => {
      const response = await fetch(url, init);
      const origin = requestIdOf(init?.body);
      const type = response.headers.get("content-type") ?? "";
      if (origin === undefined || !response.body || !type.includes("text/event-stream"))
        return response;
      return new Response(response.body.pipeThrough(this.sseTap(origin)), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  }

  private sseTap(origin: RequestId): TransformStream<Uint8Array, Uint8Array> {
    const decoder = new TextDecoder();
    let buffered = "";
    const note = (event: string) => {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n");
      if (!data) return;
      try {
        const message = JSON.parse(data) as JSONRPCMessage;
        if (isJSONRPCRequest(message) && message.method === "elicitation/create")
          this.related.set(message.id, origin);
      } catch {
        // Not JSON-RPC: the transport reports it.
      }
    };
    return new TransformStream({
      transform: (chunk, controller) => {
        // Noted before the transport reads the chunk, so before any handler runs.
        buffered += decoder.decode(chunk, { stream: true });
        const events = buffered.split(/\r?\n\r?\n/);
        buffered = events.pop() ?? "";
        for (const event of events) note(event);
        controller.enqueue(chunk);
      },
    });
  }

  /** Whose a server request `requestId` (a form) is; `followed`: tasks of the connection being followed. */
  route(
    requestId: RequestId,
    meta: Record<string, unknown> | undefined,
    followed: number,
  ): FormRoute {
    const related = this.related.get(requestId);
    this.related.delete(requestId);
    const task = (meta?.[RELATED_TASK_META_KEY] as { taskId?: unknown } | undefined)?.taskId;
    let call: FormCall | undefined;
    if (typeof task === "string") {
      call = this.tasks.get(task);
      if (!call) return { refused: "it names a task no call here follows" };
      // Sent on one call's stream while naming another call's task: whose is it?
      if (related !== undefined && this.calls.get(related) !== call)
        return { refused: "the task it names is not the call whose stream it came on" };
    } else if (related !== undefined) {
      call = this.calls.get(related);
      if (!call) return { refused: "it came with a request that is no call in flight" };
    } else {
      const inFlight = new Set(this.calls.values());
      const busy = inFlight.size + Math.max(followed, this.tasks.size);
      if (busy !== 1 || inFlight.size !== 1)
        return { refused: `it names no call, and ${busy} calls are in flight` };
      [call] = [...inFlight];
    }
    if (!call!.elicit) return { refused: "the call it belongs to has nobody to ask" };
    return { call: call! };
  }
}
