import { describe, expect, it } from "vitest";
import { bundleReader } from "./file-references";

describe("bundleReader", () => {
  const stored = { "flows/main.yaml": "wf", "flows/s.sh": "script", "shared/p.md": "prompt" };

  it("reads a stored bundle's files relative to the workflow file's folder, normalised", () => {
    const files = bundleReader(stored, "flows/main.yaml");
    expect(files.read("s.sh")).toBe("script");
    expect(files.read("./sub/../s.sh")).toBe("script");
    expect(files.read("../shared/p.md")).toBe("prompt");
    expect(files.read("p.md")).toBeUndefined();
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
