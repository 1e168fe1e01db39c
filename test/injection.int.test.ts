/**
 * Injection through values: run inputs, a loop's items and a previous step's output that
 * hold shell syntax (`$( )`, backticks, `;`, pipes, newlines, quotes, a here-document's
 * end, `${VAR}`) and template syntax (`{{ }}`) flow into shell steps in every place a
 * `{{ }}` can stand (bare, in double and single quotes, inside a word, inside `$( )`, in a
 * here-document, a script_file, a second shell through `escape`). Through the real worker
 * and sandbox: every value arrives byte for byte, no command inside one runs (the marker
 * files it would make are looked for in the run's workspace), and `{{ }}` inside a value is
 * never rendered again.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";

let stack: RunStack;
beforeAll(async () => {
  stack = await openRunStack();
}, 120_000);
afterAll(() => closeRunStack(stack ?? {}));

const caller = () =>
  dashboardCaller(
    { db: stack.db, queue: stack.queue, redis: stack.redis, prefix: stack.prefix },
    stack.adminId,
  );

/** Each would make a file named pwned-* in the workspace (or print EXPANDED) if it ran as code. */
const PAYLOADS = [
  "$(touch pwned-dollar)",
  "`touch pwned-backtick`",
  "; touch pwned-semicolon",
  "x\ntouch pwned-newline\ny",
  `'"; touch pwned-quotes; echo "'`,
  `" $(touch pwned-dq) "`,
  "' $(touch pwned-sq) '",
  "| touch pwned-pipe && touch pwned-and || touch pwned-or & touch pwned-bg",
  "{{.inputs.other}}",
  '{{ readFile "/etc/passwd" }}',
  "${HOME} $SY_INPUTS_OTHER ${SY_INPUTS_OTHER:-x} $(( 6 * 7 ))",
  "EOF\ntouch pwned-heredoc\nEOF",
  "\\$(touch pwned-escaped) \\` \\\\ \\n * ? [a] ~ # not a comment",
  "-n --help",
  "é ✓ 😀 \u2028 \u00a0",
  "$(touch /workspace/pwned-abs)`touch /tmp/pwned-tmp`",
];
const OTHER = "EXPANDED";
const SEP = "\n@@@\n";
const inputs: Record<string, unknown> = Object.fromEntries<unknown>([
  ...PAYLOADS.map((p, i): [string, unknown] => [`p${i}`, p]),
  ["other", OTHER] as [string, unknown],
  ["list", PAYLOADS] as [string, unknown],
]);
const refs = (wrap: (ref: string) => string) =>
  PAYLOADS.map((_, i) => wrap(`{{.inputs.p${i}}}`)).join(" ");
const expected = (wrap: (p: string) => string = (p) => p) =>
  PAYLOADS.map((p) => `${wrap(p)}${SEP}`).join("");

const yamlString = (s: string) => JSON.stringify(s);
const step = (name: string, command: string, next: string) =>
  `  ${name}:\n    type: step\n    command: ${yamlString(command)}\n    on_success: ${next}\n`;

const workflow = `name: injection
inputs:
${PAYLOADS.map((_, i) => `  - name: p${i}\n    type: string\n    required: true\n`).join("")}  - name: other
    type: string
    required: true
  - name: list
    type: array
    required: true
states:
  initial: bare
${step("bare", `touch canary; printf '%s\\n@@@\\n' ${refs((r) => r)}`, "double")}${step("double", `printf '%s\\n@@@\\n' ${refs((r) => `"${r}"`)}`, "single")}${step(
  "single",
  `printf '%s\\n@@@\\n' ${refs((r) => `'${r}'`)}`,
  "word",
)}${step("word", `printf '%s\\n@@@\\n' ${refs((r) => `a${r}b`)}`, "subst")}${step(
  "subst",
  `printf '%s\\n@@@\\n' ${refs((r) => `"$(printf '%s' ${r})"`)}`,
  "heredoc",
)}${step("heredoc", `cat <<EOF\n${PAYLOADS.map((_, i) => `{{.inputs.p${i}}}\n@@@\n`).join("")}EOF`, "nested")}${step(
  "nested",
  `sh -c "printf '%s\\n@@@\\n' ${PAYLOADS.map((_, i) => `{{escape .inputs.p${i}}}`).join(" ")}"`,
  "script",
)}  script:
    type: step
    script_file: scripts/show.sh
    on_success: emit
${step("emit", `printf '%s' {{.inputs.p0}}' | '{{.inputs.p1}}`, "use_output")}${step("use_output", `printf '%s' {{.states.emit.Output}}`, "each")}  each:
    type: for_each
    items: "{{.inputs.list}}"
    body: [item]
    on_complete: look
  item:
    type: step
    command: ${yamlString(`printf '%s\\n@@@\\n' {{.loop.Item}}`)}
${step("look", "ls -a /workspace /tmp; ls -a", "done")}  done:
    type: terminal
    status: success
`;

it("hands every hostile value to shell steps as data, never as code", async () => {
  // `emit` prints p0 ' | ' p1 (a value that is itself hostile) for the next step to read back.
  const emitted = `${PAYLOADS[0]} | ${PAYLOADS[1]}`;
  const files = {
    "workflow.yaml": workflow,
    "scripts/show.sh": `printf '%s\\n@@@\\n' ${refs((r) => r)}\n`,
  };
  const checked = await caller().workflows.validate({ entry: "workflow.yaml", files });
  expect(checked.errors).toEqual([]);
  const { workflowId } = await caller().workflows.save({ entry: "workflow.yaml", files });
  const { id } = await caller().runs.start({ workflowId, inputs });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000);
  const out = (state: string) =>
    run.steps.filter((s) => s.stateName === state).map((s) => s.stdout);
  expect(
    run.status,
    JSON.stringify(run.steps.map((s) => [s.stateName, s.status, s.stdout.slice(0, 200)])),
  ).toBe("succeeded");

  expect(out("bare")).toEqual([expected()]);
  expect(out("double")).toEqual([expected()]);
  expect(out("single")).toEqual([expected()]);
  expect(out("word")).toEqual([expected((p) => `a${p}b`)]);
  expect(out("subst")).toEqual([expected()]);
  expect(out("heredoc")).toEqual([expected()]);
  expect(out("nested")).toEqual([expected()]);
  expect(out("script")).toEqual([expected()]);
  expect(out("emit")).toEqual([emitted]);
  expect(out("use_output")).toEqual([emitted]);
  expect(out("item").join("")).toBe(expected());

  const listing = out("look").join("\n");
  // The workspace is the run's: the canary the first step left is there, a pwned-* file would be too.
  expect(listing).toMatch(/^canary$/m);
  expect(listing).not.toContain("pwned");
  for (const s of run.steps) expect(s.stdout).not.toContain(OTHER);
}, 180_000);
