/**
 * followRunEvents over a real HTTP connection: messages split across chunks and CRLF line
 * ends are parsed, a connection that closes before `event: end` is resumed after the last
 * event seen (no event twice, none skipped), and an error answer is the server's code.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { createSwitchyardClient, followRunEvents, SwitchyardApiError } from "./index";

let server: Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

/** Serves GET /api/v1/runs/r1/events with `answer(after)` for each connection; records the `after` asked. */
const serve = async (answer: (after: number, res: ServerResponse) => void) => {
  const asked: number[] = [];
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    expect(req.headers.authorization).toBe("Bearer sy_test");
    expect(url.pathname).toBe("/api/v1/runs/r1/events");
    const after = Number(url.searchParams.get("after") ?? "0");
    asked.push(after);
    answer(after, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    client: createSwitchyardClient({ url: `http://127.0.0.1:${port}/`, token: "sy_test" }),
    asked,
  };
};

const message = (seq: number, type: string) =>
  `id: ${seq}\r\nevent: ${type}\r\ndata: ${JSON.stringify({ seq, type, payload: { n: seq }, at: "2026-12-06T00:00:00.000Z" })}\r\n\r\n`;

it("yields each event once across a dropped connection, then how the stream ended", async () => {
  const { client, asked } = await serve((after, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    if (after === 0) {
      const first = message(1, "run.started") + message(2, "state.started");
      // split inside a message: the parser must wait for the rest
      res.write(first.slice(0, 40));
      setTimeout(() => res.end(first.slice(40)), 20);
      return;
    }
    res.write(`: keep-alive\n\n${message(3, "run.finished")}`);
    res.end(
      `event: end\ndata: ${JSON.stringify({ reason: "run_ended", status: "succeeded" })}\n\n`,
    );
  });
  const seen: number[] = [];
  const events = followRunEvents(client, "r1");
  let next = await events.next();
  for (; !next.done; next = await events.next()) seen.push(next.value.seq);
  expect(seen).toEqual([1, 2, 3]);
  expect(next.value).toEqual({ reason: "run_ended", status: "succeeded" });
  expect(asked).toEqual([0, 2]);
});

it("throws the server's error for an error answer", async () => {
  const { client } = await serve((_after, res) => {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: "NOT_FOUND", message: "run not found" } }));
  });
  const failed = await followRunEvents(client, "r1")
    .next()
    .catch((e: unknown) => e);
  expect(failed).toBeInstanceOf(SwitchyardApiError);
  expect(failed).toMatchObject({ status: 404, code: "NOT_FOUND", message: "run not found" });
});
