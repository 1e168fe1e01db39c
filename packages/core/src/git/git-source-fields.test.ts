import { expect, it } from "vitest";
import { gitWorkflowBundles } from "./git-workflow-bundles";
import { checkGitFolder, checkGitRef } from "./git-source-fields";

it("accepts branch names and folders, and refuses what git would read as an option or a way out", () => {
  expect(checkGitRef("release/1.2")).toBe("release/1.2");
  expect(checkGitFolder("/flows/ci/")).toBe("flows/ci");
  expect(checkGitFolder("")).toBe("");
  for (const bad of ["-x", "--upload-pack=sh", "a..b", "a b", "x.lock", "a//b"])
    expect(() => checkGitRef(bad)).toThrow(
      expect.objectContaining({ code: "USER.GIT.INVALID_SOURCE" }),
    );
  for (const bad of ["..", "a/../b", "a/./b", "a\\b", "$(x)"])
    expect(() => checkGitFolder(bad)).toThrow(
      expect.objectContaining({ code: "USER.GIT.INVALID_SOURCE" }),
    );
});

it("makes each top-level YAML file a workflow whose bundle holds the folder's other files", () => {
  const bundles = gitWorkflowBundles({
    "a.yaml": "A",
    "b.yml": "B",
    "scripts/run.sh": "S",
    "nested/c.yaml": "C",
  });
  expect(bundles.map((b) => b.path)).toEqual(["a.yaml", "b.yml"]);
  expect(bundles[0]!.files).toEqual({ "a.yaml": "A", "scripts/run.sh": "S", "nested/c.yaml": "C" });
});
