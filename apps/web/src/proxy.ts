/**
 * A Content-Security-Policy with a fresh nonce for every page: Next.js puts the nonce on
 * its own scripts and styles (it reads it from the request's CSP header), so no inline
 * script without it runs. API routes get their strict policy and the other security
 * headers from next.config.ts; they are not matched here (a matched request's body is
 * copied for the proxy, up to 10 MB), so their bodies stream through unbuffered.
 *
 * The one exception: a path whose percent-encoding does not decode (`/api/v1/runs/%E0%A4%A`).
 * Next.js fails on it while routing, before any route runs, and answers a bare plain-text
 * 500; the proxy answers it first, a 400 with the request's id (the project's JSON error
 * under /api). Only API paths with a percent-escape that is not plain ASCII are matched,
 * which no route of the API has.
 */
import { NextResponse, type NextRequest } from "next/server";
import { AppError } from "@switchyard/core/errors";
import { errorAnswer } from "~/server/http/api-answer";
import { servedWithRequestId } from "~/server/http/request-id";

export const pagePolicy = (nonce: string, options: { dev: boolean; https: boolean }) =>
  [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' ${options.dev ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");

const decodes = (pathname: string) => {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
};

/** A path that does not decode: JSON under /api, text for a page, each with its request id. */
const undecodablePath = (request: NextRequest, pathname: string) =>
  servedWithRequestId(request, () =>
    Promise.resolve(
      pathname.startsWith("/api/")
        ? errorAnswer(
            new AppError("BAD_REQUEST", "the path is not valid percent-encoded UTF-8", {
              location: { path: "path" },
            }),
            "path check",
          )
        : new Response("Bad request: this address is not valid.", {
            status: 400,
            headers: { "content-type": "text/plain; charset=utf-8" },
          }),
    ),
  );

export function proxy(request: NextRequest) {
  const { pathname } = new URL(request.url);
  if (!decodes(pathname)) return undecodablePath(request, pathname);
  if (pathname.startsWith("/api/")) return NextResponse.next();
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const policy = pagePolicy(nonce, {
    dev: process.env.NODE_ENV === "development",
    https: request.headers.get("x-forwarded-proto") === "https",
  });
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [
    // API paths with a percent-escape other than plain ASCII (%00-%7F): the ones that may not decode.
    "/api/:path(.*%(?![0-7][0-9A-Fa-f]).*)",
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
