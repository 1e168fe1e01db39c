/**
 * Server-sent events for one run, for the run page: every stored event of the run (`id:` is
 * its seq, the event's name its type, so a reconnect with Last-Event-ID or `?after=` resumes
 * without gaps or repeats), an `update` whenever a worker records something (the page
 * refetches the run), and `end` once the run has ended. Only a session acting in the run's
 * team may listen, and the session is checked again every few seconds as every use of it
 * is (the password changed, removed from the team, expired): once it no longer holds, the
 * stream ends with an `end` that says so.
 */
import { AppError } from "@switchyard/core/errors";
import { runStatusOf } from "@switchyard/db";
import { env } from "~/env";
import { requestSessionToken, sessionTeam } from "~/server/auth/session-token";
import { otherMethods } from "~/server/http/other-methods";
import { servedWithRequestId } from "~/server/http/request-id";
import { runEventStream, resumeSeq } from "~/server/runs/run-event-stream";
import { runUpdates } from "~/server/runs/run-updates";
import { db } from "~/server/services";

export const dynamic = "force-dynamic";

export const GET = (req: Request, context: { params: Promise<{ id: string }> }) =>
  servedWithRequestId(req, () => events(req, context));

export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods(["GET"]);

async function events(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const token = await requestSessionToken(req, env().AUTH_SECRET);
  const teamId = token ? await sessionTeam(db(), token) : undefined;
  if (!token || !teamId)
    return Response.json(
      { error: { code: "UNAUTHORIZED", message: "sign in first" } },
      { status: 401 },
    );
  const { id } = await params;
  if ((await runStatusOf(db(), teamId, id)) === null) {
    return Response.json(
      { error: { code: "NOT_FOUND", message: "run not found" } },
      { status: 404 },
    );
  }
  return runEventStream({
    db: db(),
    teamId,
    runId: id,
    after: resumeSeq(req.headers, new URL(req.url).searchParams.get("after")),
    signal: req.signal,
    listen: (runId, onChange) => runUpdates().listen(runId, onChange),
    updates: true,
    access: async () =>
      (await sessionTeam(db(), token)) === teamId
        ? undefined
        : new AppError(
            "UNAUTHORIZED",
            "the session ended (the password changed, or you were removed from this team, or it expired): sign in again",
          ),
  });
}
