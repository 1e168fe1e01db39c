FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap util-linux nftables ca-certificates git \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1
COPY package.json package-lock.json ./
COPY apps/web/package.json apps/web/
COPY apps/worker/package.json apps/worker/
COPY packages/core/package.json packages/core/
COPY packages/cli/package.json packages/cli/
COPY packages/client/package.json packages/client/
COPY packages/db/package.json packages/db/
COPY packages/scripted-model/package.json packages/scripted-model/
COPY packages/testing/package.json packages/testing/
RUN npm ci --no-audit --no-fund
COPY . .
RUN node node_modules/prisma/build/index.js generate && (cd apps/web && node ../../node_modules/next/dist/bin/next build) \
  && node packages/cli/bin/build.mjs
