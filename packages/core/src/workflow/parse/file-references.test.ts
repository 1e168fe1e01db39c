import { describe, expect, it } from "vitest";
import { bundleReader, literalFileReferences, readFileReferences } from "./file-references";
import { parseOk } from "@switchyard/testing/workflow";

describe("bundleReader", () => {
  const stored = { "flows/main.yaml": "wf", "flows/s.sh": "script", "shared/p.md": "prompt" };

  it("reads a stored bundle's files relative to the workflow file's folder, normalised", () => {
    const files = bundleReader(stored, "flows/main.yaml");
    expect(files.read("s.sh")).toBe("script");
    expect(files.read("./sub/../s.sh")).toBe("script");
    expect(files.read("../shared/p.md")).toBe("prompt");
    expect(files.read("p.md")).toBeUndefined();
  });

  it("finds no file in what every object inherits", () => {
    const files = bundleReader(stored, "main.yaml");
    expect(files.read("constructor")).toBeUndefined();
    expect(files.read("__proto__")).toBeUndefined();
    expect(files.read("toString")).toBeUndefined();
  });

  it("reads through a lookup the same way, asking it only for normalised bundle paths", () => {
    const asked: string[] = [];
    const files = bundleReader((p) => {
      asked.push(p);
      return stored[p as keyof typeof stored];
    }, "flows/main.yaml");
    expect(files.read("./sub/../s.sh")).toBe("script");
    expect(files.read("../shared/p.md")).toBe("prompt");
    expect(files.read("../../outside")).toBeUndefined();
    expect(asked).toEqual(["flows/s.sh", "shared/p.md", "../outside"]);
  });
});

describe("literalFileReferences", () => {
  it("lists script_file, prompt_file and every literal readFile, in any template or condition", () => {
    const wf = parseOk(`
name: refs
inputs: [{ name: x }]
env: { NOTES: '{{readFile "env.txt"}}' }
outputs:
  - { name: o, from: '{{readFile "out.txt"}}' }
hooks:
  workflow_start:
    - log: '{{ readFile " hook.txt " }}'
states:
  initial: run
  run:
    type: step
    script_file: scripts/run.sh
    transitions:
      - when: '{{readFile "when.txt"}} == "go"'
        goto: ask
    on_success: ask
  ask:
    type: agent
    provider: claude
    prompt_file: prompts/p.md
    system_prompt: '{{ trimSpace (readFile "system.md") }}'
    on_success: each
  each:
    type: for_each
    items: '{{ split (readFile "items.txt") "," }}'
    body: [echo]
    on_complete: call
  echo:
    type: step
    command: 'echo {{readFile .inputs.x}} {{trimSpace (readFile "a.txt")}}'
  call:
    type: call_workflow
    workflow: child
    inputs: { text: '{{readFile "child-input.txt"}}' }
    on_success: done
  done: { type: terminal, message: '{{readFile "done.txt"}}' }
`);
    expect(literalFileReferences(wf).map((r) => [r.key, r.path, r.source.path])).toEqual([
      ["script_file", "scripts/run.sh", "states.run.script_file"],
      ["prompt_file", "prompts/p.md", "states.ask.prompt_file"],
      ["readFile", "when.txt", "states.run.transitions[0].when"],
      ["readFile", "system.md", "states.ask.system_prompt"],
      ["readFile", "items.txt", "states.each.items"],
      ["readFile", "a.txt", "states.echo.command"],
      ["readFile", "child-input.txt", "states.call.inputs.text"],
      ["readFile", "done.txt", "states.done.message"],
      ["readFile", "out.txt", "outputs[0].from"],
      ["readFile", "env.txt", "env.NOTES"],
      ["readFile", "hook.txt", "hooks.workflow_start[0]"],
    ]);
  });

  it("lists the literal readFile paths of a file's text, which is a template too", () => {
    const refs = readFileReferences(
      'cat <<EOF\n{{readFile "data.txt"}} {{readFile .inputs.p}}\nEOF\n',
      {
        path: "states.run.script_file",
        line: 3,
      },
    );
    expect(refs).toEqual([
      { key: "readFile", path: "data.txt", source: { path: "states.run.script_file", line: 3 } },
    ]);
  });
});
