/**
 * Server-sent events for one run: an `update` event whenever a worker records something
 * of it, so the run page refreshes at once instead of polling. Only a session acting in
 * the run's team may listen.
 */
import { auth } from "~/server/auth/auth";
import { runUpdates } from "~/server/runs/run-updates";
import { db } from "~/server/services";

export const dynamic = "force-dynamic";

const KEEP_ALIVE_MS = 15_000;

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const session = await auth();
  if (!session?.user.id) return Response.json({ error: { code: "UNAUTHORIZED", message: "sign in first" } }, { status: 401 });
  const { id } = await params;
  // The session's team only (auth() has just checked the membership behind it).
  const run = session.teamId ? await db().run.findFirst({ where: { id, teamId: session.teamId }, select: { id: true } }) : null;
  if (!run) return Response.json({ error: { code: "NOT_FOUND", message: "run not found" } }, { status: 404 });

  const encoder = new TextEncoder();
  let stop = () => undefined as void;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (chunk: string) => {
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          stop();
        }
      };
      const unlisten = runUpdates().listen(id, () => send("event: update\ndata: {}\n\n"));
      const keepAlive = setInterval(() => send(": keep-alive\n\n"), KEEP_ALIVE_MS);
      stop = () => {
        unlisten();
        clearInterval(keepAlive);
      };
      req.signal.addEventListener("abort", () => {
        stop();
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
      send("retry: 3000\nevent: ready\ndata: {}\n\n");
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", connection: "keep-alive" },
  });
}
