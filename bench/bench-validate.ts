/**
 * Validation speed on a large file: a 200-state workflow with templates, conditions and
 * retries, parsed and validated, against reading the same YAML with the yaml package.
 */
import { parse } from "yaml";
import { parseWorkflow } from "@switchyard/core/workflow";
import { timeIt, type Sample } from "./measure";

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

export const benchValidate = async (): Promise<Sample[]> => {
  const N = 40;
  const yaml = await timeIt(N, async () => {
    parse(source);
  });
  const validate = await timeIt(N, async () => {
    const result = parseWorkflow(source, "big.yaml");
    if (result.errors.length > 0) throw new Error(result.errors[0]!.message);
  });
  return [
    {
      name: "validate a 200-state workflow (p50)",
      unit: "ms",
      baseline: yaml.p50,
      subject: validate.p50,
      note: "yaml.parse of the same file",
    },
  ];
};
