/**
 * Push webhooks of a linked git repository: POST /api/hooks/git/<source id>, authenticated
 * by the git host's signature (GitHub X-Hub-Signature-256, Gitea X-Gitea-Signature, GitLab
 * X-Gitlab-Token), not an API token. Answers 202 {syncing} (false for another branch or a
 * ping); 404 unknown, 401 bad signature, 413 too large, 405 another method.
 */
import { receiveGitPush } from "~/server/git/receive-git-push";
import { errorAnswer, jsonAnswer } from "~/server/http/api-answer";
import { BODY_LIMITS, limitedText } from "~/server/http/body-limit";
import { otherMethods } from "~/server/http/other-methods";
import { servedWithRequestId } from "~/server/http/request-id";
import { db, egress, keyring } from "~/server/services";

export const POST = (req: Request, { params }: { params: Promise<{ id: string }> }) =>
  servedWithRequestId(req, async () => {
    try {
      const { id } = await params;
      const rawBody = await limitedText(req, BODY_LIMITS.default);
      const result = await receiveGitPush(
        { db: db(), keyring, egress: egress() },
        { sourceId: id, headers: req.headers, rawBody },
      );
      return jsonAnswer(202, result);
    } catch (error) {
      return errorAnswer(error, "webhook");
    }
  });

export const { GET, PUT, DELETE, PATCH, OPTIONS } = otherMethods(["POST"]);
