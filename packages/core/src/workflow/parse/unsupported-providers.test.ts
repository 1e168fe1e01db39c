/**
 * AWF's github_copilot and mistral_vibe providers have no headless CLI that runs here yet:
 * a step naming either is refused when the workflow is read, with its own code.
 */
import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./parse-workflow";

const agent = (provider: string) =>
  parseWorkflow(
    `name: p\nstates:\n  initial: a\n  a:\n    type: agent\n    provider: ${provider}\n    prompt: hi\n    on_success: done\n  done: { type: terminal }\n`,
    "p.yaml",
  ).errors;

describe("providers not yet supported", () => {
  it.each(["github_copilot", "mistral_vibe"])("refuses %s naming it", (provider) => {
    const errors = agent(provider);
    expect(errors.map((e) => e.code)).toEqual(["USER.MCP_PROXY.UNSUPPORTED_PROVIDER"]);
    expect(errors[0]!.message).toContain(`the ${provider} provider is not yet supported`);
  });

  it("still accepts the providers that run", () => {
    for (const provider of ["claude", "codex", "gemini", "opencode"])
      expect(agent(provider)).toEqual([]);
  });
});
