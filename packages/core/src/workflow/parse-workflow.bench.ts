/**
 * Validation speed on a large file: 200 states with templates, conditions and retries
 * (`npx vitest bench packages/core/src/workflow`).
 */
import { bench } from "vitest";
import { parseWorkflow } from "./parse-workflow";

const states = Array.from(
  { length: 200 },
  (_, i) => `  s${i}:
    type: step
    command: echo "{{.inputs.who}} {{.states.s${Math.max(0, i - 1)}.Output}}"
    retry: { max_attempts: 3, initial_delay: 1s, backoff: exponential }
    transitions:
      - when: "states.s${i}.ExitCode == 0 and inputs.who != 'x'"
        goto: ${i === 199 ? "done" : `s${i + 1}`}
      - goto: failed`,
).join("\n");
const source = `name: big\ninputs: [{ name: who }]\nstates:\n  initial: s0\n${states}\n  done: { type: terminal }\n  failed: { type: terminal, status: failure }\n`;

bench("parse and validate a 200-state workflow", () => {
  const result = parseWorkflow(source, "big.yaml");
  if (result.errors.length > 0) throw new Error(result.errors[0]!.message);
});
