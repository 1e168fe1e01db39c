/**
 * The run page at scale (issue 14, target 6): in Chromium, signed in, the page of a run
 * whose agent step made 10,000 tool calls, timed from navigation start until it is usable:
 * the step's first tool-call rows are on the page and a click on the first row opens its
 * arguments. The baseline is the same measure on the page of an ordinary run of the same
 * database (two steps, ten calls). The median of a few loads is kept (the first is warm-up).
 */
import { chromium, type Page } from "@playwright/test";
import {
  acquireScaleStack,
  QUICK,
  releaseScaleStack,
  SCALE,
  type ScaleStack,
  webDistDir,
} from "./fixtures/scale-stack";
import type { Sample } from "./measure";
import { routeBundles } from "./route-bundles";

const LOADS = QUICK ? 3 : 7;

type Load = { rows: number; interactive: number; nextPage: number };

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Opens the run's page and times it against the page's own clock (0 = navigation start). */
const loadRunPage = async (page: Page, stack: ScaleStack, runId: string): Promise<Load> => {
  await page.goto(`${stack.baseUrl}/runs/${runId}`, { waitUntil: "commit" });
  const rows = page.locator('[data-step="agent"] [data-testid="tool-call"]');
  await rows.first().waitFor({ timeout: 30_000 });
  const shown = await page.evaluate(() => performance.now());
  await rows.first().getByRole("button").first().click();
  await rows.first().getByTestId("json-arguments").waitFor({ timeout: 30_000 });
  const interactive = await page.evaluate(() => performance.now());
  // Paging: the next hundred calls, when there are more.
  let nextPage = Number.NaN;
  const next = page
    .getByRole("navigation", { name: "Pages of tool calls" })
    .getByRole("button", { name: "Next" });
  if (await next.count()) {
    const t0 = await page.evaluate(() => performance.now());
    await next.click();
    await page
      .getByTestId("tool-call-range")
      .filter({ hasText: /^Calls 101–200 / })
      .waitFor({ timeout: 30_000 });
    nextPage = (await page.evaluate(() => performance.now())) - t0;
  }
  return { rows: shown, interactive, nextPage };
};

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

/**
 * What the run page ships before it runs, against the dashboard's lightest page; every
 * route's first-load JavaScript and CSS is printed above the table.
 */
const bundleRows = (distDir: string): Sample[] => {
  const bundles = routeBundles(distDir);
  const run = bundles.find((b) => b.route === "/runs/[id]");
  const floor = bundles.find((b) => b.route === "/settings");
  if (!run || !floor)
    return [
      {
        name: "run page first-load JS+CSS (gzip)",
        unit: "KiB",
        baseline: 0,
        subject: 0,
        skipped: `no client reference manifests in ${distDir}`,
      },
    ];
  console.log("first-load JS+CSS per route (gzip, bytes, files):");
  for (const b of bundles)
    console.log(
      `  ${b.route.padEnd(28)} ${kib(b.gzip).padStart(9)} ${kib(b.bytes).padStart(9)} ${b.files}`,
    );
  return [
    {
      name: "run page first-load JS+CSS (gzip)",
      unit: "KiB",
      baseline: floor.gzip / 1024,
      subject: run.gzip / 1024,
      note: `/settings, the dashboard's lightest page; ungzipped ${kib(run.bytes)} vs ${kib(floor.bytes)}; largest route ${bundles[0]!.route} ${kib(bundles[0]!.gzip)}`,
    },
  ];
};

export const benchRunPage = async (): Promise<Sample[]> => {
  const stack = await acquireScaleStack();
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const signIn = await context.newPage();
    await signIn.goto(`${stack.baseUrl}/login`);
    await signIn.getByLabel("Email").fill(stack.seed.adminEmail);
    await signIn.getByLabel("Password").fill(stack.seed.adminPassword);
    await signIn.getByRole("button", { name: "Sign in" }).click();
    await signIn.waitForURL(/\/overview$/, { timeout: 30_000 });
    await signIn.close();

    const loads: Record<"big" | "small", Load[]> = { big: [], small: [] };
    for (let i = 0; i <= LOADS; i++)
      for (const [kind, runId] of [
        ["small", stack.seed.someRunId],
        ["big", stack.seed.bigRunId],
      ] as const) {
        const page = await context.newPage();
        try {
          const load = await loadRunPage(page, stack, runId);
          if (i > 0) loads[kind].push(load);
        } finally {
          await page.close();
        }
      }
    const of = (kind: "big" | "small", key: keyof Load) => median(loads[kind].map((l) => l[key]));
    const calls = `${SCALE.bigRunCalls.toLocaleString("en")} tool calls`;
    return [
      ...bundleRows(webDistDir()),
      {
        name: `run page, ${calls}: first rows shown`,
        unit: "ms",
        baseline: of("small", "rows"),
        subject: of("big", "rows"),
        note: `a run with 10 calls; Chromium, median of ${LOADS} loads from navigation start`,
      },
      {
        name: `run page, ${calls}: interactive (row opens)`,
        unit: "ms",
        baseline: of("small", "interactive"),
        subject: of("big", "interactive"),
        note: `a run with 10 calls; next page of 100 in ${of("big", "nextPage").toFixed(0)} ms; target ≤ 1500 ms`,
      },
    ];
  } finally {
    await browser.close();
    await releaseScaleStack("run-page");
  }
};
