import { InMemoryTransport, type ElicitResult } from "@modelcontextprotocol/client";
import { expect, it } from "vitest";
import { formCall, FormRouter, type FormCall } from "./form-routing";

const ask = () => Promise.resolve<ElicitResult>({ action: "cancel" });
const RELATED_TASK = "io.modelcontextprotocol/related-task";
const task1 = { [RELATED_TASK]: { taskId: "task-1" } };

/** A router over one end of a linked pair; `inFlight` sends a call's request and holds the call open until `end`. */
const routerOnWire = async () => {
  const router = new FormRouter();
  const [client, server] = InMemoryTransport.createLinkedPair();
  await server.start();
  const transport = router.watch(client);
  await transport.start();
  let id = 0;
  const ends: (() => void)[] = [];
  const running: Promise<void>[] = [];
  const inFlight = async (call: FormCall) => {
    const sent = (id += 1);
    const held = new Promise<void>((resolve) => ends.push(resolve));
    running.push(
      router.within(call, async () => {
        await transport.send({ jsonrpc: "2.0", id: sent, method: "tools/call", params: {} });
        await held;
      }),
    );
    await new Promise((r) => setTimeout(r, 5));
    return sent;
  };
  const end = async () => {
    for (const resolve of ends) resolve();
    await Promise.all(running);
  };
  return { router, inFlight, end };
};

/** The SSE answer to the POST of request `origin`, carrying form `formId`, through the router's tap. */
const streamed = async (router: FormRouter, origin: number, formId: number) => {
  const form = { jsonrpc: "2.0", id: formId, method: "elicitation/create", params: {} };
  const body = `event: message\ndata: ${JSON.stringify(form)}\n\n`;
  const fetch = router.tap(() =>
    Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } })),
  );
  const response = await fetch("http://server.test/mcp", {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: origin, method: "tools/call", params: {} }),
  });
  // The stream passes unchanged.
  expect(await response.text()).toBe(body);
};

it("routes a form to the call whose stream it came on, whatever else is in flight", async () => {
  const { router, inFlight, end } = await routerOnWire();
  const first = formCall(ask);
  const second = formCall(ask);
  await inFlight(first);
  const secondId = await inFlight(second);
  await streamed(router, secondId, 77);
  expect(router.route(77, undefined, 0)).toEqual({ call: second });
  // A form that names no call while two are in flight goes nowhere.
  expect(router.route(78, undefined, 0)).toEqual({
    refused: "it names no call, and 2 calls are in flight",
  });
  await end();
  // A form on the stream of a call that has ended is nobody's.
  await streamed(router, secondId, 79);
  expect(router.route(79, undefined, 0)).toEqual({
    refused: "it came with a request that is no call in flight",
  });
});

it("gives a form that names no call to the lone call in flight, never while a task is followed", async () => {
  const { router, inFlight, end } = await routerOnWire();
  const lone = formCall(ask);
  await inFlight(lone);
  expect(router.route(5, undefined, 0)).toEqual({ call: lone });
  expect(router.route(6, undefined, 1)).toEqual({
    refused: "it names no call, and 2 calls are in flight",
  });
  await end();
  expect(router.route(7, undefined, 0)).toEqual({
    refused: "it names no call, and 0 calls are in flight",
  });
});

it("routes a form naming a task to the call following it, unless it came on another call's stream", async () => {
  const { router, inFlight, end } = await routerOnWire();
  const follower = formCall(ask);
  const stop = router.following("task-1", follower);
  const strangerId = await inFlight(formCall(ask));
  expect(router.route(9, task1, 1)).toEqual({ call: follower });
  await streamed(router, strangerId, 10);
  expect(router.route(10, task1, 1)).toEqual({
    refused: "the task it names is not the call whose stream it came on",
  });
  expect(router.route(11, { [RELATED_TASK]: { taskId: "task-2" } }, 1)).toEqual({
    refused: "it names a task no call here follows",
  });
  stop();
  expect(router.route(12, task1, 0)).toEqual({ refused: "it names a task no call here follows" });
  await end();
});

it("refuses a form of a call that has nobody to ask", async () => {
  const { router, inFlight, end } = await routerOnWire();
  await inFlight(formCall(undefined));
  expect(router.route(1, undefined, 0)).toEqual({
    refused: "the call it belongs to has nobody to ask",
  });
  await end();
});

it("ends a call's forms with the caller's signal", () => {
  const caller = new AbortController();
  const call = formCall(ask, caller.signal);
  expect(call.ended.signal.aborted).toBe(false);
  caller.abort();
  expect(call.ended.signal.aborted).toBe(true);
});
