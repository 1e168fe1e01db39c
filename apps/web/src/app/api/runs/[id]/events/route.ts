/**
 * Server-sent events for one run, for the run page: every stored event of the run (`id:` is
 * its seq, so a reconnect with Last-Event-ID or `?after=` resumes without gaps or repeats),
 * an `update` whenever a worker records something (the page refetches the run), and `end`
 * once the run has ended. Only a session acting in the run's team may listen.
 */
import { runStatusOf } from "@switchyard/db";
import { auth } from "~/server/auth/auth";
import { runEventStream, resumeSeq } from "~/server/runs/run-event-stream";
import { runUpdates } from "~/server/runs/run-updates";
import { db } from "~/server/services";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const session = await auth();
  if (!session?.user.id) return Response.json({ error: { code: "UNAUTHORIZED", message: "sign in first" } }, { status: 401 });
  const { id } = await params;
  // The session's team only (auth() has just checked the membership behind it).
  const teamId = session.teamId;
  if (!teamId || (await runStatusOf(db(), teamId, id)) === null) {
    return Response.json({ error: { code: "NOT_FOUND", message: "run not found" } }, { status: 404 });
  }
  return runEventStream({
    db: db(),
    teamId,
    runId: id,
    after: resumeSeq(req.headers, new URL(req.url).searchParams.get("after")),
    signal: req.signal,
    listen: (runId, onChange) => runUpdates().listen(runId, onChange),
    updates: true,
  });
}
