/**
 * Downloads a run's logs (NDJSON: the run, each step attempt's output, every stored event)
 * for a session acting in the run's team.
 */
import { AppError } from "@switchyard/core/errors";
import { auth } from "~/server/auth/auth";
import { otherMethods } from "~/server/http/other-methods";
import { servedWithRequestId } from "~/server/http/request-id";
import { runLogResponse } from "~/server/runs/run-log";
import { db } from "~/server/services";

export const dynamic = "force-dynamic";

export const GET = (req: Request, context: { params: Promise<{ id: string }> }) =>
  servedWithRequestId(req, () => logs(context));

export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods(["GET"]);

async function logs({ params }: { params: Promise<{ id: string }> }) {
  const session = await auth();
  if (!session?.user.id)
    return Response.json(
      { error: { code: "UNAUTHORIZED", message: "sign in first" } },
      { status: 401 },
    );
  const { id } = await params;
  if (!session.teamId)
    return Response.json(
      { error: { code: "NOT_FOUND", message: "run not found" } },
      { status: 404 },
    );
  try {
    return await runLogResponse(db(), session.teamId, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND")
      return Response.json(
        { error: { code: "NOT_FOUND", message: "run not found" } },
        { status: 404 },
      );
    throw error;
  }
}
