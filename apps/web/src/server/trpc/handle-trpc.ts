/**
 * Serves a tRPC request over fetch with the request body limit of the procedures it calls:
 * a bundle-sized body only for calls that include a procedure taking a workflow bundle, an
 * archive-sized one for a pack install.
 * An oversized body fails as the procedure reads its input: PAYLOAD_TOO_LARGE, HTTP 413.
 */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { BODY_LIMITS, withBodyLimit } from "../http/body-limit";
import { refuseCrossSite } from "../http/cross-site";
import { servedWithRequestId } from "../http/request-id";
import type { TrpcContext } from "./init";
import { appRouter } from "./root";

export const TRPC_ENDPOINT = "/api/trpc";

const BUNDLE_PROCEDURES = new Set(["workflows.save", "workflows.validate"]);

const bodyLimit = (req: Request) => {
  let paths: string[];
  try {
    paths = decodeURIComponent(new URL(req.url).pathname.slice(TRPC_ENDPOINT.length + 1)).split(
      ",",
    );
  } catch {
    return BODY_LIMITS.default;
  }
  if (paths.includes("packs.install")) return BODY_LIMITS.pack;
  return paths.some((p) => BUNDLE_PROCEDURES.has(p)) ? BODY_LIMITS.bundle : BODY_LIMITS.default;
};

/**
 * Served under the request's id (the caller's `x-request-id`, or a new one), which the answer carries back.
 * A mutation sent from another site is refused with 403 before anything runs (the session cookie rides along).
 */
export const handleTrpc = (req: Request, createContext: () => Promise<TrpcContext>) =>
  servedWithRequestId(req, () => {
    const refused = refuseCrossSite(req);
    if (refused) return Promise.resolve(refused);
    return fetchRequestHandler({
      endpoint: TRPC_ENDPOINT,
      req: withBodyLimit(req, bodyLimit(req)),
      router: appRouter,
      createContext,
    });
  });
