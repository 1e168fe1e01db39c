/**
 * Removing a step's folders and giving a lent tree back as root, while a process of the
 * step keeps swapping entries for symlinks to a root-owned canary outside: the walk goes by
 * descriptor, so the canary is never touched.
 */
import {
  chmod,
  chown,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startRacer, stopRacer } from "@switchyard/testing/sandbox";
import { lendTree } from "./lend-tree";
import { removeFolder } from "./fd-tree";

const asRoot = process.getuid?.() === 0;
const STEP = 61_998;
const ROUNDS = 12;

let base: string;
let canary: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), "sy-fdtree-"));
  await chmod(base, 0o711);
  canary = path.join(base, "canary");
  await mkdir(path.join(canary, "sub"), { recursive: true });
  for (const f of ["keep", "sub/keep"])
    await writeFile(path.join(canary, f), `canary ${f}`, { mode: 0o600 });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A perl loop, as the step uid, in `dir`. */
const race = (dir: string, program: string) => startRacer(STEP, dir, program);

const canaryState = async () => ({
  files: (await readdir(canary, { recursive: true })).sort(),
  keep: await readFile(path.join(canary, "keep"), "utf8"),
  mode: (await stat(path.join(canary, "keep"))).mode & 0o7777,
});

describe.skipIf(!asRoot)("walking a tree a live step changes (needs root)", () => {
  it(`removeFolder never follows a folder swapped for a symlink (${ROUNDS} rounds)`, async () => {
    const before = await canaryState();
    for (let round = 0; round < ROUNDS; round++) {
      const root = path.join(base, `run-${round}`);
      await mkdir(root, { mode: 0o700 });
      await chown(root, STEP, STEP);
      // d<i> is a folder holding `keep` and `sub/keep`, or, for a moment, a symlink to the canary.
      const racer = race(
        root,
        `my $c = ${JSON.stringify(canary)};
         while (1) {
           for my $i (1..40) {
             mkdir "d$i"; mkdir "d$i/sub";
             open(my $f, ">", "d$i/keep"); close $f; open(my $g, ">", "d$i/sub/keep"); close $g;
           }
           for my $i (1..40) { rename "d$i", "t$i"; symlink $c, "d$i"; }
           for my $i (1..40) { unlink "d$i"; rename "t$i", "d$i"; }
         }`,
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      await removeFolder(root).catch(() => undefined);
      await stopRacer(racer);
      await removeFolder(root);
      await expect(stat(root)).rejects.toMatchObject({ code: "ENOENT" });
      expect(await canaryState()).toEqual(before);
    }
  });

  it(`giving a lent tree back never re-moded an entry swapped for a symlink (${ROUNDS} rounds)`, async () => {
    const before = await canaryState();
    for (let round = 0; round < ROUNDS; round++) {
      const root = path.join(base, `lent-${round}`);
      await mkdir(root, { mode: 0o755 });
      const lent = await lendTree(root, { uid: STEP });
      // s<i> is a set-uid file of the step's (whose bit the give-back strips), or a symlink to the canary.
      const racer = race(
        root,
        `my $c = ${JSON.stringify(canary + "/keep")};
         while (1) {
           for my $i (1..60) { open(my $f, ">", "n$i"); close $f; chmod 04755, "n$i"; rename "n$i", "s$i"; }
           for my $i (1..60) { symlink $c, "l$i"; rename "l$i", "s$i"; }
         }`,
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      await lent.giveBack();
      await stopRacer(racer);
      expect(await canaryState()).toEqual(before);
      await removeFolder(root);
    }
  });
});

describe("removeFolder", () => {
  it("removes a tree with folders the step closed, symlinks and special files; missing is fine", async () => {
    const root = path.join(base, "tree");
    await mkdir(path.join(root, "closed/inner"), { recursive: true });
    await writeFile(path.join(root, "closed/inner/f"), "x");
    await writeFile(path.join(root, "top"), "x");
    const { symlink } = await import("node:fs/promises");
    await symlink(canary, path.join(root, "to-canary"));
    await symlink(path.join(canary, "keep"), path.join(root, "closed/to-keep"));
    await chmod(path.join(root, "closed/inner"), 0o500);
    await chmod(path.join(root, "closed"), 0o000);
    const before = await canaryState();
    await removeFolder(root);
    await expect(stat(root)).rejects.toMatchObject({ code: "ENOENT" });
    expect(await canaryState()).toEqual(before);
    await removeFolder(root);
  });
});
