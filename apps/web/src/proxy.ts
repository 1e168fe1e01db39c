/**
 * A Content-Security-Policy with a fresh nonce for every page: Next.js puts the nonce on
 * its own scripts and styles (it reads it from the request's CSP header), so no inline
 * script without it runs. API routes get their strict policy and the other security
 * headers from next.config.ts; they are not matched here, so their bodies stream
 * through unbuffered.
 */
import { NextResponse, type NextRequest } from "next/server";

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

export function proxy(request: NextRequest) {
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
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
