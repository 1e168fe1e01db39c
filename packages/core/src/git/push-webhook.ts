/**
 * A push webhook from a git host, checked with the source's webhook secret in the host's own
 * way: GitHub (X-Hub-Signature-256: sha256=<HMAC-SHA256 of the body>), Gitea and Forgejo
 * (X-Gitea-Signature / X-Forgejo-Signature: the HMAC in hex) and GitLab (X-Gitlab-Token:
 * the secret itself). Compared in constant time. Answers which branch was pushed, when the
 * body says (`ref: refs/heads/<branch>`), so a push to another branch syncs nothing.
 */
import { createHmac } from "node:crypto";
import { sameText } from "../crypto/same-text";
import { AppError } from "../errors";

type Headers = { get: (name: string) => string | null };

type PushWebhook = {
  host: "github" | "gitea" | "gitlab";
  /** the pushed branch, or undefined for an event that is not a push (a ping) */
  branch: string | undefined;
};

const hmacHex = (secret: string, body: string) =>
  createHmac("sha256", secret).update(body).digest("hex");

const invalid = () =>
  new AppError(
    "USER.WEBHOOK.SIGNATURE_INVALID",
    "the webhook's signature does not match its body and this repository's webhook secret",
  );

const pushedBranch = (body: string) => {
  try {
    const ref = (JSON.parse(body) as { ref?: unknown }).ref;
    return typeof ref === "string" && ref.startsWith("refs/heads/")
      ? ref.slice("refs/heads/".length)
      : undefined;
  } catch {
    throw new AppError("USER.INPUT.VALIDATION_FAILED", "the webhook's body is not JSON");
  }
};

/** Checks the delivery; throws USER.WEBHOOK.SIGNATURE_MISSING or _INVALID. */
export const verifyPushWebhook = (input: {
  headers: Headers;
  body: string;
  secret: string;
}): PushWebhook => {
  const { headers, body, secret } = input;
  const gitea = headers.get("x-gitea-signature") ?? headers.get("x-forgejo-signature");
  const github = headers.get("x-hub-signature-256");
  const gitlab = headers.get("x-gitlab-token");
  let host: PushWebhook["host"];
  if (gitea !== null) {
    if (!sameText(gitea.trim().toLowerCase(), hmacHex(secret, body))) throw invalid();
    host = "gitea";
  } else if (github !== null) {
    if (!sameText(github.trim().toLowerCase(), `sha256=${hmacHex(secret, body)}`)) throw invalid();
    host = "github";
  } else if (gitlab !== null) {
    if (!sameText(gitlab, secret)) throw invalid();
    host = "gitlab";
  } else
    throw new AppError(
      "USER.WEBHOOK.SIGNATURE_MISSING",
      "send X-Hub-Signature-256 (GitHub), X-Gitea-Signature (Gitea, Forgejo) or X-Gitlab-Token (GitLab)",
    );
  const event = (
    headers.get("x-github-event") ??
    headers.get("x-gitea-event") ??
    headers.get("x-forgejo-event") ??
    headers.get("x-gitlab-event") ??
    ""
  ).toLowerCase();
  const isPush = event === "push" || event === "push hook";
  return { host, branch: isPush ? pushedBranch(body) : undefined };
};
