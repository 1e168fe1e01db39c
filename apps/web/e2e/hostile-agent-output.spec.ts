/**
 * Hostile text from a real run, through the real worker: the scripted model's tool calls
 * carry markup, `</script>`, `javascript:` URLs, markdown links, ANSI escapes (an OSC 8
 * hyperlink among them) and a right-to-left override in their arguments and results (the
 * Bash tool prints them, with a 200 KB line), in the agent's text and answer, and a shell
 * step prints them. Every page that shows them — the run page's tool calls opened, step output, events
 * with output chunks, the span waterfall, the overview's top tools — shows them as text; no
 * script runs (the payloads would set window.__xss or open a dialog), no element they would
 * make exists, no link has a `javascript:` href; the logs download and the event stream are
 * served as data, never as a page.
 */
import { expect, test, type Page } from "@playwright/test";
import type { ScriptedModel } from "@switchyard/scripted-model";
import { startScriptedAgent } from "./scripted-agent";
import { signIn } from "./sign-in";

const IMG = "<img src=x onerror=window.__xss=1;alert(1)>";
const SCRIPT = "</script><script>window.__xss=2;alert(2)</script>";
const JS_URL = "javascript:window.__xss=3";
const MARKDOWN =
  "[click me](javascript:window.__xss=4) ![pic](javascript:alert(5)) <a href=javascript:alert(6)>a</a>";
const ANSI =
  "\u001b[31mRED\u001b[0m \u001b]8;;javascript:alert(7)\u001b\\osc-link\u001b]8;;\u001b\\";
const RTL = "\u202Egnp.exe";
const LONG = `LONG-START${"L".repeat(200 * 1024)}LONG-END`;
const PAYLOADS = [IMG, SCRIPT, JS_URL, MARKDOWN, ANSI, RTL];
/** A tool name no tool has: the agent refuses the call before any tool sees it (it is not recorded). */
const HOSTILE_TOOL = "<svg/onload=window.__xss=8>";

/** Prints LONG: the line is made by the command, which one argument could not hold whole. */
const PRINT_LONG = `printf 'LONG-START'; head -c ${200 * 1024} /dev/zero | tr '\\0' L; printf 'LONG-END\\n'`;
/** A shell command printing every payload, each on its own line (printf's %s takes them as data). */
const printAll = () =>
  `printf '%s\\n' ${PAYLOADS.map((p) => `'${p.replace(/'/g, `'\\''`)}'`).join(" ")}`;

let model: ScriptedModel | undefined;

const WORKFLOW = (url: string) => `name: hostile-agent
states:
  initial: shout
  shout:
    type: step
    command: |
      printf '%s\\n' ${[IMG, SCRIPT, JS_URL, MARKDOWN].map((p) => `'${p}'`).join(" ")}
      printf '\\033[31mRED\\033[0m \\033]8;;javascript:alert(7)\\033\\\\osc-link\\033]8;;\\033\\\\\\n'
      printf '\\342\\200\\256gnp.exe\\n'
      ${PRINT_LONG}
    on_success: agent
  agent:
    type: agent
    provider: openai_compatible
    prompt: HOSTILE-AGENT
    options:
      base_url: ${url}/v1
      model: scripted-1
      api_key: sk-e2e-hostile-literal
    timeout: 2m
    on_success: done
  done:
    type: terminal
    status: success
`;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  model = await startScriptedAgent({
    name: "hostile-agent",
    workflow: WORKFLOW,
    script: {
      turns: [],
      rules: [
        {
          match: { messagesContain: "HOSTILE-DONE" },
          text: `Answer: ${PAYLOADS.join(" ")}`,
          usage: { inputTokens: 30, outputTokens: 3 },
        },
        {
          match: { messagesContain: "HOSTILE-AGENT" },
          text: `Thinking: ${PAYLOADS.join(" ")}`,
          toolCalls: [
            {
              name: "Bash",
              arguments: { command: `${printAll()}; ${PRINT_LONG}; echo HOSTILE-DONE` },
            },
            {
              name: "Write",
              arguments: { path: "notes/hostile.md", content: PAYLOADS.join("\n") },
            },
            { name: HOSTILE_TOOL, arguments: { x: SCRIPT } },
          ],
          usage: { inputTokens: 10, outputTokens: 1 },
        },
      ],
    },
  });
});
test.afterAll(async () => {
  await model?.close();
});

/** Fails on any dialog; the returned check says no payload ran and nothing it would make exists. */
const watch = (page: Page) => {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return async (where: string) => {
    expect(
      await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss),
      where,
    ).toBeUndefined();
    expect(dialogs, where).toEqual([]);
    expect(
      await page.locator('img[src="x"], svg[onload], [onerror], [onload]').count(),
      where,
    ).toBe(0);
    const hrefs = await page
      .locator("a[href]")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    expect(
      hrefs.filter((h) => /^\s*(javascript|data|vbscript):/i.test(h)),
      where,
    ).toEqual([]);
  };
};

test("hostile tool arguments, results, agent text and step output are shown as text on every page, and never run", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const clean = watch(page);
  await signIn(page);
  await page.goto("/workflows");
  await page
    .locator('tr[data-workflow="hostile-agent"]')
    .getByRole("button", { name: "Run" })
    .click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runId = page.url().split("/").pop()!;

  // While the shell step streams, and once the run ends.
  await expect(page.locator("h1 .badge")).toHaveText(/succeeded|failed/, { timeout: 120_000 });
  await clean("run page, live");
  await page.reload();
  await expect(page.locator("h1 .badge")).toHaveText("succeeded");
  expect(model?.failures).toEqual([]);

  // The shell step's output: every payload literally, the 200 KB line whole.
  const output = page.locator('[data-step="shout"]').getByTestId("step-output");
  const shown = (await output.textContent()) ?? "";
  for (const p of [IMG, SCRIPT, JS_URL, MARKDOWN, "\u001b[31mRED\u001b[0m", "osc-link", RTL])
    expect(shown, JSON.stringify(p)).toContain(p);
  expect(shown).toContain(LONG);

  // The agent: its text and answer, then each tool call opened to its arguments and result.
  const agent = page.locator('[data-step="agent"]');
  const said =
    (await agent.getByTestId("agent-text").allTextContents()).join("\n") +
    ((await agent.getByTestId("agent-answer").textContent()) ?? "");
  for (const p of PAYLOADS) expect(said, JSON.stringify(p)).toContain(p);
  const calls = agent.getByTestId("tool-call");
  await expect(calls).toHaveCount(2);
  for (let i = 0; i < 2; i++) await calls.nth(i).locator("button.tool-call-head").click();
  const bash = agent.locator('[data-testid="tool-call"][data-tool="Bash"]');
  await bash.getByRole("button", { name: "Show all" }).first().click();
  const bashArgs = JSON.parse((await bash.getByTestId("json-arguments").textContent()) ?? "{}") as {
    command: string;
  };
  for (const p of PAYLOADS) expect(bashArgs.command).toContain(p.replace(/'/g, `'\\''`));
  const bashResult = (await bash.getByTestId("json-result").textContent()) ?? "";
  for (const p of [IMG, SCRIPT, JS_URL, MARKDOWN]) expect(bashResult).toContain(p);
  expect(bashResult).toContain("LONG-START");
  const write = agent.locator('[data-testid="tool-call"][data-tool="Write"]');
  const writeArgs = JSON.parse(
    (await write.getByTestId("json-arguments").textContent()) ?? "{}",
  ) as { content: string };
  expect(writeArgs.content).toBe(PAYLOADS.join("\n"));
  await clean("tool calls opened");

  // Events, with the output chunks shown.
  await page.getByLabel("Show output chunks").check();
  await expect(page.getByTestId("run-events")).toContainText("<img src=x onerror=");
  await clean("events with output");

  // The span waterfall names the tools' calls.
  await expect(page.getByTestId("span-waterfall")).toContainText("Bash");
  await clean("span waterfall");

  // The logs download and the event stream are data, never a page a browser would render.
  const logs = await page.request.get(`/api/runs/${runId}/logs`);
  expect(logs.status()).toBe(200);
  expect(logs.headers()["content-type"]).toMatch(/^application\/x-ndjson/);
  expect(logs.headers()["content-disposition"]).toMatch(/^attachment;/);
  expect(logs.headers()["x-content-type-options"]).toBe("nosniff");
  const lines = (await logs.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { kind: string; stdout?: string });
  expect(lines.find((l) => l.kind === "step")?.stdout).toContain(IMG);
  const events = await page.request
    .get(`/api/runs/${runId}/events?after=999999`, { timeout: 10_000 })
    .catch(() => null);
  if (events) expect(events.headers()["content-type"]).toMatch(/^text\/event-stream/);
  // Opened directly in the browser, the stream is not parsed as a page either.
  await page.goto(`/api/runs/${runId}/logs`).catch(() => undefined);
  await clean("logs opened in the browser");

  // The overview's top tools list the run's tools.
  await page.goto("/overview");
  await expect(page.getByText("Bash", { exact: true }).first()).toBeVisible();
  await clean("overview");
});
