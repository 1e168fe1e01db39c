/**
 * Sizes and durations as AWF's reference documents them: capture.max_size in B, KB, MB
 * or GB; timeouts in seconds or Go duration strings (ns, us/µs, ms, s, m, h), 0 meaning
 * none; retry delays in Go duration strings or plain milliseconds. A bad value is an
 * error with its code, line and column.
 */
import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./parse-workflow";
import { runYaml } from "@switchyard/testing/workflow";
import type { StepState } from "../model/workflow-types";

const step = (fields: string) => {
  const parsed = parseWorkflow(
    `name: u\nstates:\n  initial: s\n  s:\n    type: step\n    command: "true"\n${fields}\n`,
    "u.yaml",
  );
  return {
    state: parsed.workflow?.states.get("s") as StepState | undefined,
    errors: parsed.errors,
  };
};

describe("capture.max_size", () => {
  it.each([
    ["512", 512],
    ["'512'", 512],
    ["512B", 512],
    ["'2 KB'", 2048],
    ["1.5KB", 1536],
    ["500KB", 500 * 1024],
    ["1MB", 1024 * 1024],
    ["2mb", 2 * 1024 * 1024],
    ["1GB", 1024 ** 3],
  ])("takes %s as %i bytes", (text, bytes) => {
    const { state, errors } = step(`    capture:\n      stdout: out\n      max_size: ${text}`);
    expect(errors).toEqual([]);
    expect(state?.capture?.maxSize).toBe(bytes);
  });

  it.each(["10XB", "1TB", "-5", "0", "MB", "1 M B", "0.1B"])(
    "refuses %s with a code, line and column",
    (text) => {
      const { errors } = step(`    capture:\n      stdout: out\n      max_size: ${text}`);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({
        code: "WORKFLOW.VALIDATION.INVALID_VALUE",
        location: { line: 9, column: 17, path: "states.s.capture.max_size" },
      });
      expect(errors[0]!.message).toMatch(/B, KB, MB or GB/);
    },
  );
});

describe("timeouts", () => {
  it.each([
    ["30", 30_000],
    ["'30'", 30_000],
    ["1m30s", 90_000],
    ["500ms", 500],
    ["2h", 7_200_000],
    ["1.5s", 1500],
    ["1500us", 1.5],
    ["1500µs", 1.5],
    ["1500μs", 1.5],
    ["2000000ns", 2],
    ["'+1s'", 1000],
    [".5s", 500],
  ])("takes %s as %f ms", (text, ms) => {
    const { state, errors } = step(`    timeout: ${text}`);
    expect(errors).toEqual([]);
    expect(state?.timeoutMs).toBe(ms);
  });

  it("takes 0 (a number or a duration) as no timeout, as AWF does", () => {
    for (const zero of ["0", "0s", "'0'"]) {
      const { state, errors } = step(`    timeout: ${zero}`);
      expect(errors).toEqual([]);
      expect(state?.timeoutMs).toBeUndefined();
    }
    const hook = step(`    pre_hook:\n      command: "true"\n      timeout: 0`);
    expect(hook.errors).toEqual([]);
    expect(hook.state?.hooks.pre[0]).toEqual({ kind: "command", command: "true" });
  });

  it("runs a step and a hook with timeout 0 to their end instead of stopping them at once", async () => {
    const { outcome } = await runYaml(`
name: no-timeout
states:
  initial: s
  s:
    type: step
    command: sleep 0.2; echo done
    timeout: 0
    pre_hook:
      command: sleep 0.1
      timeout: 0
    on_success: end
  end: { type: terminal }
`);
    expect(outcome.status).toBe("succeeded");
    expect(outcome.checkpoint.results.s?.output).toBe("done");
  });

  it("takes a templated timeout that resolves to 0 as no timeout", async () => {
    const { outcome } = await runYaml(`
name: templated
inputs: [{ name: t, default: "0" }]
states:
  initial: s
  s:
    type: step
    command: sleep 0.2; echo done
    timeout: "{{.inputs.t}}"
    on_success: end
  end: { type: terminal }
`);
    expect(outcome.status).toBe("succeeded");
    expect(outcome.checkpoint.results.s?.output).toBe("done");
  });

  it.each(["10x", "-1s", "1d", "s", "1h-5m", "'1 s'"])(
    "refuses %s with a code, line and column",
    (text) => {
      const { errors } = step(`    timeout: ${text}`);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({
        code: "WORKFLOW.VALIDATION.INVALID_VALUE",
        location: { line: 7, column: 14, path: "states.s.timeout" },
      });
    },
  );
});

describe("retry delays", () => {
  it("takes Go duration strings, and a plain number as milliseconds", () => {
    const { state, errors } = step(
      "    retry:\n      max_attempts: 3\n      initial_delay: 250\n      max_delay: 1m",
    );
    expect(errors).toEqual([]);
    expect(state?.retry).toMatchObject({ initialDelayMs: 250, maxDelayMs: 60_000 });
    const go = step(
      "    retry:\n      max_attempts: 3\n      initial_delay: 1.5s\n      max_delay: '2000'",
    );
    expect(go.state?.retry).toMatchObject({ initialDelayMs: 1500, maxDelayMs: 2000 });
  });

  it("refuses a bad delay with a code, line and column", () => {
    const { errors } = step("    retry:\n      max_attempts: 3\n      initial_delay: soon");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      code: "WORKFLOW.VALIDATION.INVALID_VALUE",
      location: { line: 9, column: 22, path: "states.s.retry.initial_delay" },
    });
    expect(errors[0]!.message).toContain("milliseconds");
  });
});
