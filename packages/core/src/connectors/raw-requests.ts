/**
 * Requests the SDK client cannot make itself, sent on the client's own transport. On
 * 2026-07-28 the client decodes every result by its `resultType` and refuses any it does not
 * know, so a `tools/call` answered with a task (the tasks extension's `resultType: "task"`)
 * never reaches its caller; these requests go around that decoding. The transport is wrapped
 * before the client connects: a response whose id is one of ours is answered here and never
 * seen by the client, everything else passes through untouched. The request carries the
 * per-request `_meta` envelope the client would send, so the transport derives its headers
 * (protocol version, method, `Mcp-Name`) from it as for the client's own requests.
 */
import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type JSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/client";

type RawOptions = { timeout: number; signal?: AbortSignal };

/** Sends one JSON-RPC request and resolves with its raw `result`; an error answer is a ProtocolError. */
export type RawRequest = (
  method: string,
  params: Record<string, unknown>,
  options: RawOptions,
) => Promise<unknown>;

type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void };

type Response = {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

const isResponse = (message: JSONRPCMessage): message is JSONRPCMessage & Response =>
  "id" in message && !("method" in message);

/** The transport to give the client, and how to send requests of one's own on it. */
export const withRawRequests = (
  transport: Transport,
): { transport: Transport; request: RawRequest } => {
  const pending = new Map<string, Pending>();
  let next = 0;
  let clientOnMessage: Transport["onmessage"];
  let clientOnClose: Transport["onclose"];
  const closed = () => {
    for (const [id, waiter] of pending) {
      pending.delete(id);
      waiter.reject(new SdkError(SdkErrorCode.ConnectionClosed, "the connection closed"));
    }
  };
  // Functions are bound to the transport itself: its own fields stay its own.
  const wrapped = new Proxy(transport, {
    get(target, prop) {
      if (prop === "onmessage") return clientOnMessage;
      if (prop === "onclose") return clientOnClose;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function"
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
    set(target, prop, value) {
      if (prop === "onmessage") {
        clientOnMessage = value as Transport["onmessage"];
        target.onmessage = (message, extra) => {
          const id = isResponse(message) ? message.id : undefined;
          const waiter = typeof id === "string" ? pending.get(id) : undefined;
          if (!waiter) return clientOnMessage?.(message, extra);
          pending.delete(id as string);
          const { result, error } = message as Response;
          if (error) waiter.reject(new ProtocolError(error.code, error.message, error.data));
          else waiter.resolve(result);
        };
        return true;
      }
      if (prop === "onclose") {
        clientOnClose = value as Transport["onclose"];
        target.onclose = () => {
          closed();
          clientOnClose?.();
        };
        return true;
      }
      return Reflect.set(target, prop, value, target);
    },
  });
  const request: RawRequest = (method, params, { timeout, signal }) =>
    new Promise<unknown>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const id = `switchyard-${++next}`;
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", aborted);
        pending.delete(id);
      };
      const aborted = () => {
        done();
        reject(signal?.reason as Error);
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new SdkError(SdkErrorCode.RequestTimeout, `${method} timed out after ${timeout} ms`),
        );
      }, timeout);
      signal?.addEventListener("abort", aborted, { once: true });
      // Settled once, by whichever comes first: the answer, the timeout, the abort or a close.
      const settle =
        <A extends unknown[]>(then: (...a: A) => void) =>
        (...a: A) => {
          done();
          then(...a);
        };
      pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      transport
        .send({ jsonrpc: "2.0", id, method, params })
        .catch((error: unknown) => pending.get(id)?.reject(error as Error));
    });
  return { transport: wrapped, request };
};
