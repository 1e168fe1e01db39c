import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyPushWebhook } from "./push-webhook";

const secret = "gitwh_test-secret";
const body = JSON.stringify({ ref: "refs/heads/main", after: "abc" });
const hex = (b: string, s = secret) => createHmac("sha256", s).update(b).digest("hex");
const check = (headers: Record<string, string>, b = body) =>
  verifyPushWebhook({ headers: new Headers(headers), body: b, secret });

describe("push webhooks", () => {
  it("reads GitHub's, Gitea's and GitLab's signatures and the pushed branch", () => {
    expect(
      check({ "x-github-event": "push", "x-hub-signature-256": `sha256=${hex(body)}` }),
    ).toEqual({
      host: "github",
      branch: "main",
    });
    expect(check({ "x-gitea-event": "push", "x-gitea-signature": hex(body) })).toEqual({
      host: "gitea",
      branch: "main",
    });
    expect(check({ "x-gitlab-event": "Push Hook", "x-gitlab-token": secret })).toEqual({
      host: "gitlab",
      branch: "main",
    });
    // A ping is signed too, and names no branch.
    expect(
      check({ "x-github-event": "ping", "x-hub-signature-256": `sha256=${hex(body)}` }).branch,
    ).toBeUndefined();
  });

  it("refuses a signature of another secret or body, and a delivery without one", () => {
    const invalid = { code: "USER.WEBHOOK.SIGNATURE_INVALID" };
    expect(() => check({ "x-hub-signature-256": `sha256=${hex(body, "other")}` })).toThrow(
      expect.objectContaining(invalid),
    );
    expect(() => check({ "x-gitea-signature": hex(`${body} `) })).toThrow(
      expect.objectContaining(invalid),
    );
    expect(() => check({ "x-gitlab-token": `${secret}x` })).toThrow(
      expect.objectContaining(invalid),
    );
    expect(() => check({ "x-github-event": "push" })).toThrow(
      expect.objectContaining({ code: "USER.WEBHOOK.SIGNATURE_MISSING" }),
    );
  });
});
