import { deployInputsWorkflow, parseOk } from "@switchyard/testing/workflow";
import { describe, expect, it } from "vitest";
import { collectInputs, NOT_A_TERMINAL, type LineReader } from "./input-prompt";

const deploy = [
  ...parseOk(deployInputsWorkflow("deploy")).inputs,
  ...parseOk(`
name: more
inputs:
  - { name: count, type: integer, required: false, description: Number of instances }
  - name: option
    required: false
    validation:
      enum: [opt1, opt2, opt3, opt4, opt5, opt6, opt7, opt8, opt9, opt10]
states:
  initial: done
  done: { type: terminal }
`).inputs,
];

/** A terminal that answers `lines` in turn (undefined: Ctrl+D), keeping what was shown. */
const scripted = (lines: (string | undefined)[]) => {
  let shown = "";
  const read: LineReader = (prompt) => {
    shown += prompt;
    const line = lines.shift();
    shown += line === undefined ? "^D\n" : `${line}\n`;
    return Promise.resolve(line);
  };
  return { read, write: (text: string) => void (shown += text), shown: () => shown };
};

describe("collectInputs", () => {
  it("asks for each input not given in AWF's words, retrying what is invalid", async () => {
    const term = scripted(["5", "3", "1.2.3", "v1.2.3", "yes", "t", "abc", "", "opt11", ""]);
    const inputs = await collectInputs(deploy, {}, term);
    expect(inputs).toEqual({ environment: "prod", version: "v1.2.3", dry_run: "true" });
    const shown = term.shown();
    expect(shown).toContain(
      [
        "Enter value for 'environment' (string, required)",
        "Description: Target environment",
        "Options:",
        "  1. dev",
        "  2. staging",
        "  3. prod",
        "Select option (1-3): 5",
        'Error: invalid selection "5" (valid: 1-3)',
        "",
        "Select option (1-3): 3",
        "✓ Selected: prod",
      ].join("\n"),
    );
    expect(shown).toContain(
      [
        "Enter value for 'version' (string, required)",
        "Description: Version tag to deploy",
        "Pattern: ^v\\d+\\.\\d+\\.\\d+$",
        "> 1.2.3",
        'Error: value "1.2.3" does not match pattern "^v\\d+\\.\\d+\\.\\d+$"',
        "",
        "Enter value for 'version' (string, required)",
        "> v1.2.3",
        "✓ Accepted",
      ].join("\n"),
    );
    expect(shown).toContain('Error: invalid integer value "abc"');
    expect(shown).toContain(
      ["Enter value for 'count' (integer, optional)", "> ", "✓ Skipped (no value provided)"].join(
        "\n",
      ),
    );
    expect(shown).toContain("Enter value for 'dry_run' (boolean, optional, default: false)");
    expect(shown).toContain('Error: invalid boolean value "yes" (use: true, false, 1, 0, t, f)');
    expect(shown).toContain("✓ Accepted: true");
    expect(shown).toContain(
      "Valid values: opt1, opt2, opt3, opt4, opt5, opt6, opt7, opt8, opt9, opt10",
    );
    expect(shown).toContain('Error: value "opt11" not in allowed values');
  });

  it("asks nothing when every required input is given, and only for what is not given", async () => {
    const none = scripted([]);
    expect(await collectInputs(deploy, { environment: "dev", version: "v1.0.0" }, none)).toEqual({
      environment: "dev",
      version: "v1.0.0",
    });
    expect(none.shown()).toBe("");
    const some = scripted(["v2.0.0", "", "", ""]);
    expect(await collectInputs(deploy, { environment: "dev" }, some)).toMatchObject({
      environment: "dev",
      version: "v2.0.0",
    });
    expect(some.shown()).not.toContain("'environment'");
    expect(some.shown()).toContain("✓ Using default: false");
  });

  it("refuses without a terminal, and ends on Ctrl+D", async () => {
    await expect(collectInputs(deploy, {}, undefined)).rejects.toMatchObject({
      code: "USER.INPUT.VALIDATION_FAILED",
      message: NOT_A_TERMINAL,
    });
    await expect(collectInputs(deploy, {}, scripted([undefined]))).rejects.toMatchObject({
      code: "USER.INPUT.CANCELLED",
      message: "input cancelled",
    });
  });
});
