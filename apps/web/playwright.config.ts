import { defineConfig } from "@playwright/test";

// Chosen once in the main process; workers inherit it through the environment. The range
// holds none of the ports Next.js and Chromium refuse as reserved (3659 is one of them).
process.env.E2E_PORT ??= String(3700 + Math.floor(Math.random() * 300));

export default defineConfig({
  testDir: "./e2e",
  timeout: 60_000,
  expect: { timeout: 20_000 },
  workers: 1,
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL: `http://127.0.0.1:${process.env.E2E_PORT}`,
    trace: "off",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
});
