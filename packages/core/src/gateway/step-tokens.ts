/**
 * Per-step gateway tokens: 32 random bytes each, found by a digest of what the client
 * presented and then compared in constant time, and accepted only where that vendor's
 * CLI sends its key (Anthropic `x-api-key` or Bearer, OpenAI Bearer, Gemini
 * `x-goog-api-key` or `?key=`).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { Vendor } from "./gateway-types";

export type TokenPosition = "x-api-key" | "bearer" | "x-goog-api-key" | "query-key";
export type PresentedToken = { position: TokenPosition; value: string };

const ACCEPTED: Record<Vendor, readonly TokenPosition[]> = {
  anthropic: ["x-api-key", "bearer"],
  openai: ["bearer"],
  gemini: ["x-goog-api-key", "query-key"],
};

const TOKEN_PREFIX = "sygw_";

const single = (v: string | string[] | undefined) => (typeof v === "string" ? v.trim() : undefined);

/** Every credential the request carries where some vendor's CLI would put its key. */
export const presentedTokens = (
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
): PresentedToken[] => {
  const found: PresentedToken[] = [];
  const apiKey = single(headers["x-api-key"]);
  if (apiKey) found.push({ position: "x-api-key", value: apiKey });
  const bearer = /^Bearer\s+(\S+)$/i.exec(single(headers.authorization) ?? "");
  if (bearer?.[1]) found.push({ position: "bearer", value: bearer[1] });
  const goog = single(headers["x-goog-api-key"]);
  if (goog) found.push({ position: "x-goog-api-key", value: goog });
  const key = query.get("key");
  if (key) found.push({ position: "query-key", value: key });
  return found;
};

const digest = (value: string) => createHash("sha256").update(value).digest("base64");

export class StepTokens<T extends { vendor: Vendor }> {
  private readonly byDigest = new Map<string, { token: Buffer; entry: T }>();

  issue(entry: T): string {
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
    this.byDigest.set(digest(token), { token: Buffer.from(token), entry });
    return token;
  }

  revoke(token: string): void {
    this.byDigest.delete(digest(token));
  }

  /** The registration one of the presented credentials belongs to, where its vendor accepts it. */
  find(presented: readonly PresentedToken[]): T | undefined {
    for (const { position, value } of presented) {
      const hit = this.byDigest.get(digest(value));
      if (!hit) continue;
      const given = Buffer.from(value);
      if (given.length !== hit.token.length || !timingSafeEqual(given, hit.token)) continue;
      if (ACCEPTED[hit.entry.vendor].includes(position)) return hit.entry;
    }
    return undefined;
  }
}
