import { expect, test } from "vitest";
import { AppError } from "../errors";
import { readPackArchive } from "./pack-archive";
import { AWF_LANGUAGE_VERSION } from "./awf-version";
import { readPackManifest } from "./pack-manifest";
import { releaseSpec, verifyChecksum } from "./pack-release";
import { readPack } from "./read-pack";
import { MANIFEST, goodPack, tarGz } from "@switchyard/testing/packs";
import { createHash } from "node:crypto";

/** The AppError `f` throws (the test fails when it throws none). */
const thrown = (f: () => unknown): AppError => {
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(AppError);
  return caught as AppError;
};

test("a pack reads into one bundle per workflow, its prompts and scripts beside it", () => {
  const pack = readPack(goodPack());
  expect(pack.manifest).toMatchObject({
    name: "speckit",
    version: "1.0.0",
    workflows: ["specify"],
  });
  expect(pack.readme).toContain("speckit");
  expect(pack.workflows).toHaveLength(1);
  expect(pack.workflows[0]!.entryPath).toBe("specify.yaml");
  expect(Object.keys(pack.workflows[0]!.files).sort()).toEqual([
    "prompts/greeting.md",
    "scripts/hello.sh",
    "specify.yaml",
  ]);
});

test("a single top folder is taken off", () => {
  const files = readPackArchive(
    tarGz([
      { path: "speckit-1.0.0/manifest.yaml", content: MANIFEST },
      { path: "speckit-1.0.0/workflows/specify.yaml", content: "x" },
    ]),
  );
  expect(Object.keys(files).sort()).toEqual(["manifest.yaml", "workflows/specify.yaml"]);
});

test("the manifest's name, version, awf_version and workflows are checked with their lines", () => {
  const r = readPackManifest("name: Spec_Kit\nversion: one\nworkflows: []\nextra: 1\n");
  expect(r.manifest).toBeUndefined();
  const byPath: Record<string, AppError | undefined> = Object.fromEntries(
    r.errors.map((e) => [e.location?.path ?? "", e]),
  );
  expect(byPath.name?.code).toBe("USER.PACK.INVALID_MANIFEST");
  expect(byPath.name?.message).toContain("^[a-z][a-z0-9-]*$");
  expect(byPath.name?.location).toMatchObject({ file: "manifest.yaml", line: 1 });
  expect(byPath.version?.message).toContain("not a semantic version");
  expect(byPath.version?.location?.line).toBe(2);
  expect(byPath.awf_version?.message).toContain("is required");
  expect(byPath.workflows?.location?.line).toBe(3);
  expect(byPath.extra?.message).toContain("unknown field");
});

test("local and global are reserved pack names", () => {
  for (const name of ["local", "global"]) {
    const r = readPackManifest(MANIFEST.replace("speckit", name));
    expect(r.errors[0]?.code).toBe("USER.PACK.RESERVED_NAME");
    expect(r.errors[0]?.message).toContain("is reserved");
  }
  expect(readPackManifest(MANIFEST.replace("speckit", "localpack")).manifest?.name).toBe(
    "localpack",
  );
});

test("plugins are warnings and the pack still reads", () => {
  const r = readPackManifest(`${MANIFEST}plugins:\n  jira: ">=1.0.0"\n`);
  expect(r.manifest?.plugins).toEqual({ jira: ">=1.0.0" });
  expect(r.warnings[0]?.code).toBe("USER.PACK.PLUGIN_REQUIRED");
  expect(r.warnings[0]?.message).toContain('"jira" (>=1.0.0)');
});

test("a listed workflow without its file is refused at its manifest line", () => {
  const e = thrown(() =>
    readPack(
      tarGz([
        { path: "manifest.yaml", content: `${MANIFEST}  - review\n` },
        { path: "workflows/specify.yaml", content: "x" },
      ]),
    ),
  );
  expect(e.code).toBe("USER.PACK.MISSING_WORKFLOW");
  expect(e.message).toContain("workflows/review.yaml");
  expect(e.location).toMatchObject({ file: "manifest.yaml", path: "workflows[1]" });
});

test("no manifest, not gzip, not tar", () => {
  expect(thrown(() => readPack(tarGz([{ path: "a.txt", content: "x" }]))).code).toBe(
    "USER.PACK.INVALID_MANIFEST",
  );
  expect(thrown(() => readPackArchive(Buffer.from("plain text"))).code).toBe(
    "USER.PACK.INVALID_ARCHIVE",
  );
});

test("paths and links that leave the archive are refused", () => {
  const traversal = thrown(() => readPackArchive(tarGz([{ path: "../etc/passwd", content: "x" }])));
  expect(traversal.code).toBe("USER.PACK.INVALID_ARCHIVE");
  expect(traversal.message).toContain("outside the archive");
  expect(
    thrown(() => readPackArchive(tarGz([{ path: "/etc/passwd", content: "x" }]))).message,
  ).toContain("absolute");
  const link = thrown(() =>
    readPackArchive(tarGz([{ path: "scripts/evil.sh", type: "2", link: "../../../etc/shadow" }])),
  );
  expect(link.message).toContain('link "scripts/evil.sh" leads outside');
  expect(thrown(() => readPackArchive(tarGz([{ path: "dev", type: "3" }]))).message).toContain(
    "special file",
  );
  // a link inside the archive reads as its target
  const files = readPackArchive(
    tarGz([
      { path: "manifest.yaml", content: MANIFEST },
      { path: "prompts/a.md", content: "A" },
      { path: "prompts/b.md", type: "2", link: "a.md" },
    ]),
  );
  expect(files["prompts/b.md"]).toBe("A");
  // a link to a link listed after it still reads; a link to nothing is refused
  const chained = readPackArchive(
    tarGz([
      { path: "c.md", type: "2", link: "b.md" },
      { path: "b.md", type: "2", link: "a.md" },
      { path: "a.md", content: "A" },
    ]),
  );
  expect(chained["c.md"]).toBe("A");
  expect(thrown(() => readPackArchive(tarGz([{ path: "x", type: "2", link: "y" }]))).message).toBe(
    'link "x" names no file of the archive',
  );
});

test("links count toward the unpacked bytes, so links to one large file are no bomb", () => {
  const big = "x".repeat(60_000);
  const links = Array.from({ length: 40 }, (_, i) => ({
    path: `l${i}`,
    type: "1" as const,
    link: "big",
  }));
  const limits = { compressedBytes: 1e6, unpackedBytes: 1e6, entries: 100, fileBytes: 1e6 };
  expect(
    thrown(() => readPackArchive(tarGz([{ path: "big", content: big }, ...links]), limits)).message,
  ).toContain("files and links come to over 1000000 bytes");
});

test("size and entry limits", () => {
  const limits = { compressedBytes: 1e6, unpackedBytes: 1e6, entries: 2, fileBytes: 10 };
  expect(
    thrown(() => readPackArchive(tarGz([{ path: "a", content: "x".repeat(11) }]), limits)).code,
  ).toBe("USER.PACK.ARCHIVE_TOO_LARGE");
  expect(
    thrown(() => readPackArchive(tarGz([{ path: "a" }, { path: "b" }, { path: "c" }]), limits))
      .message,
  ).toContain("more than 2 entries");
  const bomb = tarGz([{ path: "a", content: "x".repeat(200_000) }]);
  expect(
    thrown(() => readPackArchive(bomb, { ...limits, unpackedBytes: 100_000, fileBytes: 1e6 }))
      .message,
  ).toContain("unpacks to over");
});

test("release sources and checksums", () => {
  expect(releaseSpec("myorg/awf-workflow-speckit@v1.2.0")).toEqual({
    owner: "myorg",
    repo: "awf-workflow-speckit",
    version: "v1.2.0",
  });
  expect(releaseSpec("a/b")).toEqual({ owner: "a", repo: "b" });
  expect(thrown(() => releaseSpec("a/b@>=1.0.0")).code).toBe("USER.PACK.INVALID_SOURCE");
  expect(thrown(() => releaseSpec("../b")).code).toBe("USER.PACK.INVALID_SOURCE");
  const data = Buffer.from("archive");
  const sum = createHash("sha256").update(data).digest("hex");
  expect(() => verifyChecksum(data, "p.tar.gz", `${sum}  p.tar.gz\n`)).not.toThrow();
  expect(thrown(() => verifyChecksum(data, "p.tar.gz", `${"0".repeat(64)}  p.tar.gz\n`)).code).toBe(
    "USER.PACK.CHECKSUM_MISMATCH",
  );
});

test("awf_version is a constraint on the AWF language version Switchyard implements", () => {
  const withConstraint = (c: string) => readPackManifest(MANIFEST.replace(">=0.5.0", c));
  // The constraints AWF's own user guide writes in its pack examples are among them.
  for (const ok of [
    ">=0.4.0",
    ">=0.5.0",
    ">=0.7.0",
    ">=0.8.0",
    `>=${AWF_LANGUAGE_VERSION}`,
    `${AWF_LANGUAGE_VERSION}`,
    ">=0.4.0, <1.0.0",
    ">0.1.0 <=9.0.0",
    `~${AWF_LANGUAGE_VERSION}`,
    `^${AWF_LANGUAGE_VERSION}`,
    "!=0.1.0",
  ])
    expect(withConstraint(ok).errors, ok).toEqual([]);
  const tooNew = withConstraint(">=99.0.0");
  expect(tooNew.manifest).toBeUndefined();
  expect(tooNew.errors[0]?.code).toBe("USER.PACK.AWF_VERSION_INCOMPATIBLE");
  expect(tooNew.errors[0]?.message).toContain("awf_version");
  expect(tooNew.errors[0]?.message).toContain(AWF_LANGUAGE_VERSION);
  expect(tooNew.errors[0]?.location).toMatchObject({
    file: "manifest.yaml",
    path: "awf_version",
    line: 4,
  });
  for (const no of ["<0.1.0", "^0.1.0", "~0.1.0", `!=${AWF_LANGUAGE_VERSION}`, ">=0.1.0 <0.2.0"])
    expect(withConstraint(no).errors[0]?.code, no).toBe("USER.PACK.AWF_VERSION_INCOMPATIBLE");
  for (const bad of ["latest", ">= one", "=>0.5.0", ">=0.5"]) {
    const r = withConstraint(bad);
    expect(r.errors[0]?.code, bad).toBe("USER.PACK.INVALID_MANIFEST");
    expect(r.errors[0]?.location).toMatchObject({ path: "awf_version", line: 4 });
  }
});
