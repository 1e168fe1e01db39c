/**
 * Cross-site request forgery guard for cookie-authenticated, state-changing requests (tRPC
 * mutations ride on the dashboard's session cookie). A request is refused when the browser says it
 * came from another site or origin (Sec-Fetch-Site: cross-site or same-site), or when its Origin
 * is not this server's host (the Host, or X-Forwarded-Host behind a proxy). A request with
 * neither header comes from no browser page (curl, a script) and carries no ambient cookie of a
 * victim, so it passes. Reads (GET, HEAD) are not checked: they change nothing.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const hostOf = (origin: string) => {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
};

/** Why `req` is refused as cross-site, or undefined when it may go on. */
const crossSiteReason = (req: Request): string | undefined => {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return undefined;
  const fetchSite = req.headers.get("sec-fetch-site");
  if (fetchSite === "cross-site" || fetchSite === "same-site")
    return `a ${fetchSite} request may not change anything here`;
  const origin = req.headers.get("origin");
  if (origin === null) return undefined;
  const host =
    req.headers.get("x-forwarded-host")?.split(",")[0]?.trim() ||
    req.headers.get("host") ||
    new URL(req.url).host;
  const from = hostOf(origin);
  if (from === undefined || from.toLowerCase() !== host.toLowerCase())
    return `a request from origin ${origin} may not change anything here`;
  return undefined;
};

/** A 403 answer with the FORBIDDEN code for a cross-site state-changing request, or undefined. */
export const refuseCrossSite = (req: Request): Response | undefined => {
  const reason = crossSiteReason(req);
  if (reason === undefined) return undefined;
  return Response.json(
    { error: { code: "FORBIDDEN", message: `${reason}: send it from the dashboard itself` } },
    { status: 403 },
  );
};
