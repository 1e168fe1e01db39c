/**
 * The address a request came from, for per-address sign-in limits. Next.js puts the
 * socket's address in X-Forwarded-For only when the request has no such header, and each
 * reverse proxy in front appends the address it saw; so the client is the entry as many
 * places from the right as there are trusted proxies (the last entry when there are none).
 */
export const clientAddress = (headers: Headers, trustedProxies: number) => {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
  return entries[Math.max(0, entries.length - Math.max(1, trustedProxies))] ?? "unknown";
};
