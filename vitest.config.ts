import { defineConfig } from "vitest/config";

const alias = { "~": new URL("./apps/web/src", import.meta.url).pathname };

// Fault injection against real processes and services (`npm run test:chaos`): slow, so only
// when asked for, never in a plain `vitest run`.
const chaos = process.env.SWITCHYARD_CHAOS === "1";

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: [
            "packages/**/src/**/*.test.ts",
            "apps/**/src/**/*.test.ts",
            "test/**/*.test.ts",
          ],
          exclude: ["**/*.int.test.ts", "**/*.chaos.test.ts", "**/node_modules/**"],
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["**/*.int.test.ts"],
          exclude: ["**/node_modules/**"],
          globalSetup: ["./test/global-setup.ts"],
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
      ...(chaos
        ? [
            {
              resolve: { alias },
              test: {
                name: "chaos",
                include: ["test/chaos/**/*.chaos.test.ts"],
                globalSetup: ["./test/global-setup.ts"],
                // One fault at a time: each file starts workers and services of its own.
                fileParallelism: false,
                testTimeout: 300_000,
                hookTimeout: 120_000,
              },
            },
          ]
        : []),
    ],
  },
});
