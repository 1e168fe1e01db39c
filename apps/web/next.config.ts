import type { NextConfig } from "next";

const config: NextConfig = {
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
};

export default config;
