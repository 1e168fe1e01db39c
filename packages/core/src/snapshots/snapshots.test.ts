/**
 * A folder walked into snapshot entries and written back: files with their modes, links as
 * links, empty folders; limits that refuse whole; and hostile manifests that would write
 * outside the folder, refused before anything is written.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmod,
  chown,
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAppError } from "../errors";
import { startRacer, stopRacer, treeListing } from "@switchyard/testing/sandbox";
import {
  readFolderFile,
  snapshotFolder,
  writeSnapshotEntries,
  type FolderSnapshot,
  type SnapshotEntry,
  type SnapshotFile,
} from "./index";

const LIMITS = { maxFileBytes: 1 << 20, maxTotalBytes: 4 << 20 };
const asRoot = process.getuid?.() === 0;

let base: string;
let source: string;
let target: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), "sy-snap-"));
  source = path.join(base, "source");
  target = path.join(base, "target");
  await mkdir(source);
  await mkdir(target);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

const kept = (snapshot: FolderSnapshot) => {
  if (!snapshot.kept) throw new Error(`not kept: ${snapshot.reason}`);
  return snapshot;
};

/** Content by hash, read from the source folder as a store would have it. */
const storeOf = async (dir: string, entries: SnapshotEntry[]) => {
  const blobs = new Map<string, Buffer>();
  for (const entry of entries)
    if ("sha256" in entry) blobs.set(entry.sha256, await readFolderFile(dir, entry));
  return (hash: string) => {
    const bytes = blobs.get(hash);
    return bytes ? Promise.resolve(bytes) : Promise.reject(new Error(`no blob ${hash}`));
  };
};

const expectRefused = async (
  manifest: unknown,
  content = () => Promise.resolve(Buffer.from("")),
) => {
  const error: unknown = await writeSnapshotEntries(target, manifest, content).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isAppError(error) && error.code).toBe("SYSTEM.SNAPSHOT_INVALID");
  return error as Error;
};

describe("snapshotFolder and writeSnapshotEntries", () => {
  it("round-trips files with their modes, links as links and empty folders", async () => {
    await mkdir(path.join(source, "src/deep"), { recursive: true });
    await mkdir(path.join(source, "empty/inner"), { recursive: true });
    await writeFile(path.join(source, "README.md"), "hello");
    await writeFile(path.join(source, "src/run.sh"), "#!/bin/sh\necho hi\n");
    await chmod(path.join(source, "src/run.sh"), 0o750);
    await writeFile(path.join(source, "src/deep/secret.txt"), "private");
    await chmod(path.join(source, "src/deep/secret.txt"), 0o600);
    await writeFile(path.join(source, "same.txt"), "hello");
    await symlink("../README.md", path.join(source, "src/readme-link"));
    await symlink("/etc", path.join(source, "etc-link"));
    await symlink("nowhere", path.join(source, "dangling"));

    const snapshot = kept(await snapshotFolder(source, LIMITS));
    expect(snapshot.files).toBe(4);
    expect(snapshot.totalBytes).toBe(5 + 18 + 7 + 5);
    expect(snapshot.entries).toContainEqual({ path: "etc-link", link: "/etc" });
    expect(snapshot.entries).toContainEqual({ path: "empty/inner", dir: true });
    expect(snapshot.entries).toContainEqual({
      path: "src/run.sh",
      mode: 0o750,
      sha256: sha("#!/bin/sh\necho hi\n"),
      size: 18,
    });
    // The link to /etc is a link: nothing below it was walked.
    expect(snapshot.entries.some((e) => e.path.startsWith("etc-link/"))).toBe(false);
    expect(snapshot.entries.map((e) => e.path)).toEqual(
      [...snapshot.entries.map((e) => e.path)].sort(),
    );

    await writeSnapshotEntries(target, snapshot.entries, await storeOf(source, snapshot.entries));
    expect(await treeListing(target)).toEqual(await treeListing(source));
  });

  it("leaves FIFOs and sockets out instead of blocking on them", async () => {
    execFileSync("mkfifo", [path.join(source, "pipe")]);
    await writeFile(path.join(source, "a.txt"), "a");
    const snapshot = kept(await snapshotFolder(source, LIMITS));
    expect(snapshot.entries.map((e) => e.path)).toEqual(["a.txt"]);
  });

  it("refuses whole, saying why, over a file, total or entry limit", async () => {
    await writeFile(path.join(source, "big.bin"), Buffer.alloc(2000));
    await writeFile(path.join(source, "small.txt"), "x");
    expect(await snapshotFolder(source, { maxFileBytes: 1000, maxTotalBytes: 10_000 })).toEqual({
      kept: false,
      reason: '"big.bin" is larger than 1000 bytes',
    });
    expect(await snapshotFolder(source, { maxFileBytes: 5000, maxTotalBytes: 1500 })).toEqual({
      kept: false,
      reason: "the workspace's files are larger than 1500 bytes",
    });
    expect(
      await snapshotFolder(source, { maxFileBytes: 5000, maxTotalBytes: 5000, maxEntries: 1 }),
    ).toEqual({ kept: false, reason: "the workspace has more than 1 entries" });
  });

  it("reads a file again only while it has the content it was hashed with", async () => {
    await writeFile(path.join(source, "a.txt"), "before");
    const snapshot = kept(await snapshotFolder(source, LIMITS));
    const file = snapshot.entries[0] as SnapshotFile;
    expect((await readFolderFile(source, file)).toString()).toBe("before");
    await writeFile(path.join(source, "a.txt"), "after!");
    await expect(readFolderFile(source, file)).rejects.toThrow(/changed/);
    // A file swapped for a link to another file is not followed.
    await writeFile(path.join(base, "outside"), "before");
    await rm(path.join(source, "a.txt"));
    await symlink(path.join(base, "outside"), path.join(source, "a.txt"));
    await expect(readFolderFile(source, file)).rejects.toThrow();
  });

  it.skipIf(!asRoot)("gives what it writes to the owner it is told (needs root)", async () => {
    await mkdir(path.join(source, "d"));
    await writeFile(path.join(source, "d/f.txt"), "f");
    await symlink("f.txt", path.join(source, "d/l"));
    const snapshot = kept(await snapshotFolder(source, LIMITS));
    await writeSnapshotEntries(target, snapshot.entries, await storeOf(source, snapshot.entries), {
      owner: { uid: 61_997 },
    });
    for (const name of ["d", "d/f.txt", "d/l"]) {
      const stats = await lstat(path.join(target, name));
      expect([name, stats.uid, stats.gid]).toEqual([name, 61_997, 61_997]);
    }
  });
});

describe.skipIf(!asRoot)("walking a workspace a live step changes (needs root)", () => {
  const STEP = 61_995;

  it("never reads a file through a folder or file swapped for a link to one outside", async () => {
    const canary = path.join(base, "canary");
    await mkdir(canary, { mode: 0o700 });
    await writeFile(path.join(canary, "keep"), "CANARY", { mode: 0o600 });
    await chown(source, STEP, STEP);
    // f<i> is a file of the step's, or a link to the canary's file, each swapped in whole
    // (rename); d<i> a folder holding `keep`, or for a moment a link to the canary folder.
    const racer = startRacer(
      STEP,
      source,
      `my $c = ${JSON.stringify(canary)};
       while (1) {
         for my $i (1..100) { open(my $g, ">", "n$i"); print $g "step"; close $g; rename "n$i", "f$i"; }
         for my $i (1..100) { symlink "$c/keep", "l$i"; rename "l$i", "f$i"; }
         for my $i (1..10) { mkdir "d$i"; open(my $f, ">", "d$i/keep"); print $f "step"; close $f; }
         for my $i (1..10) { rename "d$i", "t$i"; symlink $c, "d$i"; }
         for my $i (1..10) { unlink "d$i"; rename "t$i", "d$i"; }
       }`,
    );
    const seen: SnapshotEntry[] = [];
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (let round = 0; round < 40; round++) {
        const snapshot = await snapshotFolder(source, LIMITS);
        if (snapshot.kept) seen.push(...snapshot.entries);
      }
    } finally {
      await stopRacer(racer);
    }
    expect(seen.length).toBeGreaterThan(0);
    const hashes = new Set(seen.flatMap((e) => ("sha256" in e ? [e.sha256] : [])));
    expect(hashes.has(sha("CANARY"))).toBe(false);
    // What a link was is kept as the link.
    expect(
      seen.filter((e) => "link" in e).every((e) => "link" in e && e.link.startsWith(canary)),
    ).toBe(true);
  });
});

it.skipIf(!asRoot)(
  "refuses a hard link to a file the folder's owner does not own (needs root)",
  async () => {
    await chown(source, 61_994, 61_994);
    await writeFile(path.join(base, "root-only"), "ROOT", { mode: 0o600 });
    await link(path.join(base, "root-only"), path.join(source, "linked"));
    expect(await snapshotFolder(source, LIMITS)).toEqual({
      kept: false,
      reason: `"linked" is a hard link to a file the folder's owner does not own`,
    });
    // Its own files may have several names.
    await rm(path.join(source, "linked"));
    await writeFile(path.join(source, "own"), "mine");
    await chown(path.join(source, "own"), 61_994, 61_994);
    await link(path.join(source, "own"), path.join(source, "own-too"));
    expect(kept(await snapshotFolder(source, LIMITS)).files).toBe(2);
  },
);

describe("a hostile manifest", () => {
  const file = (p: string) => ({ path: p, mode: 0o644, sha256: sha("x"), size: 1 });
  const outside = () => path.join(base, "escaped");

  it.each([
    ["a parent segment", [file("../escaped")]],
    ["a parent segment deeper down", [file("a/../../escaped")]],
    ["an absolute path", [file("/tmp/escaped")]],
    ["an empty segment", [file("a//b")]],
    ["a dot segment", [file("./a")]],
    ["a NUL", [file("a\0b")]],
    ["a path below a link", [{ path: "a", link: ".." }, file("a/escaped")]],
    ["a path below a file", [file("a"), file("a/b")]],
    ["the same path twice", [file("a"), { path: "a", link: "b" }]],
    ["a bad hash", [{ ...file("a"), sha256: "../../etc/passwd" }]],
    ["an unknown field", [{ ...file("a"), owner: 0 }]],
    ["a mode out of range", [{ ...file("a"), mode: 0o17777 }]],
    ["not a list", { files: [] }],
  ])("with %s is refused and writes nothing", async (_what, manifest) => {
    await expectRefused(manifest, () => Promise.resolve(Buffer.from("x")));
    expect(await readdir(target)).toEqual([]);
    await expect(lstat(outside())).rejects.toThrow();
  });

  it("is refused where a link already in the folder stands on the way", async () => {
    await mkdir(path.join(base, "elsewhere"));
    await symlink(path.join(base, "elsewhere"), path.join(target, "a"));
    const error = await expectRefused([file("a/planted")], () => Promise.resolve(Buffer.from("x")));
    expect(error.message).toContain('"a" is not a folder');
    expect(await readdir(path.join(base, "elsewhere"))).toEqual([]);
  });

  it("never writes through a link that stands where a file goes", async () => {
    await writeFile(path.join(base, "victim"), "untouched");
    await symlink(path.join(base, "victim"), path.join(target, "a"));
    await writeSnapshotEntries(target, [file("a")], () => Promise.resolve(Buffer.from("x")));
    expect(await readFile(path.join(base, "victim"), "utf8")).toBe("untouched");
    expect((await lstat(path.join(target, "a"))).isFile()).toBe(true);
  });
});
