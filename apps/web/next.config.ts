import type { NextConfig } from "next";

/** On every response; pages also get a Content-Security-Policy with a nonce from src/proxy.ts. */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];

const config: NextConfig = {
  // A build of its own per checkout or test stack (SWITCHYARD_NEXT_DIST_DIR), so two builds never share a folder.
  distDir: process.env.SWITCHYARD_NEXT_DIST_DIR ?? ".next",
  transpilePackages: ["@switchyard/core", "@switchyard/db"],
  serverExternalPackages: [
    "bullmq",
    "ioredis",
    "pg",
    "@prisma/client",
    "@prisma/adapter-pg",
    "@opentelemetry/sdk-node",
    "@opentelemetry/exporter-trace-otlp-http",
  ],
  poweredByHeader: false,
  typedRoutes: false,
  headers: () =>
    Promise.resolve([
      { source: "/:path*", headers: securityHeaders },
      // JSON and event streams: nothing in them may load or be framed.
      {
        source: "/api/:path*",
        headers: [
          {
            key: "Content-Security-Policy",
            value: "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
          },
        ],
      },
      // HSTS only where the request came over https (directly, or as the reverse proxy says).
      {
        source: "/:path*",
        has: [{ type: "header", key: "x-forwarded-proto", value: "https" }],
        headers: [
          { key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" },
        ],
      },
    ]),
};

export default config;
