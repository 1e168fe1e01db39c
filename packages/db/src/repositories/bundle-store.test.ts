/**
 * A version's parse is kept with its bundle and shared by every run of it, so it is frozen:
 * a run that changed it would change every later run of the version.
 */
import { describe, expect, it } from "vitest";
import type { WorkflowVersion } from "../generated/prisma/client";
import { parseBundle } from "./bundle-store";

const entry = `name: kept
states:
  initial: hello
  hello:
    type: step
    command: echo {{.inputs.who}}
    on_success: done
  done:
    type: terminal
inputs:
  - name: who
    type: string
`;

const bundleOf = (text: string) => ({
  version: { entryPath: "workflow.yaml" } as WorkflowVersion,
  files: { "workflow.yaml": text },
  entry: text,
});

describe("parseBundle", () => {
  it("parses a bundle once, and every later call gets the same frozen workflow", () => {
    const bundle = bundleOf(entry);
    const first = parseBundle(bundle);
    expect(first.errors).toEqual([]);
    expect(parseBundle(bundle)).toBe(first);
    const workflow = first.workflow!;
    expect(Object.isFrozen(workflow)).toBe(true);
    expect(Object.isFrozen(workflow.states.get("hello"))).toBe(true);
    expect(Object.isFrozen(workflow.inputs[0])).toBe(true);
    expect(() => {
      (workflow as { name: string }).name = "changed";
    }).toThrow(TypeError);
    expect(() => (workflow.inputs as unknown[]).push({})).toThrow(TypeError);
  });

  it("keeps a parse per name it reports under, and one per bundle", () => {
    const bundle = bundleOf("name: broken\nstates: [\n");
    const asEntry = parseBundle(bundle);
    const asCallee = parseBundle(bundle, "callee/workflow.yaml");
    expect(asEntry.errors[0]?.location?.file).toBe("workflow.yaml");
    expect(asCallee.errors[0]?.location?.file).toBe("callee/workflow.yaml");
    expect(parseBundle(bundleOf(entry))).not.toBe(parseBundle(bundleOf(entry)));
  });
});
