import {
  chmod,
  chown,
  link,
  mkdir,
  mkdtemp,
  rm,
  stat,
  symlink,
  writeFile,
  lstat,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lendTree } from "./lend-tree";

const asRoot = process.getuid?.() === 0;
const STEP = 61_999;

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), "sy-lend-"));
  await chmod(base, 0o711);
  root = path.join(base, "ws");
  outside = path.join(base, "outside.txt");
  await mkdir(path.join(root, "sub"), { recursive: true });
  await writeFile(path.join(root, "sub/a.txt"), "a");
  await writeFile(outside, "outside");
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe.skipIf(!asRoot)("lendTree (needs root)", () => {
  it("hands every entry to the uid and gives each its owner back, new ones to the folder's owner", async () => {
    await chmod(root, 0o750);
    await writeFile(path.join(root, "suid"), "x", { mode: 0o4755 });
    const lent = await lendTree(root, { uid: STEP });
    for (const f of [".", "sub", "sub/a.txt"])
      expect((await stat(path.join(root, f))).uid).toBe(STEP);
    // a set-uid file is never lent: the step could rewrite it and keep the bit
    expect((await stat(path.join(root, "suid"))).uid).toBe(process.getuid!());
    await writeFile(path.join(root, "sub/new.txt"), "n");
    await chown(path.join(root, "sub/new.txt"), STEP, STEP);
    await lent.giveBack();
    const me = process.getuid!();
    for (const f of [".", "sub", "sub/a.txt", "sub/new.txt", "suid"])
      expect((await stat(path.join(root, f))).uid).toBe(me);
    expect((await stat(root)).mode & 0o7777).toBe(0o750);
    expect((await stat(path.join(root, "suid"))).mode & 0o7777).toBe(0o4755);
  });

  it("strips set-uid and set-gid bits from what the step leaves behind", async () => {
    const lent = await lendTree(root, { uid: STEP });
    const planted = path.join(root, "sub/planted");
    await writeFile(planted, "#!/bin/sh\n");
    await chown(planted, STEP, STEP);
    await chmod(planted, 0o6755);
    await chmod(path.join(root, "sub/a.txt"), 0o4777);
    await lent.giveBack();
    for (const f of ["sub/planted", "sub/a.txt"]) {
      const s = await stat(path.join(root, f));
      expect(s.uid).toBe(process.getuid!());
      expect(s.mode & 0o6000).toBe(0);
    }
  });

  it("never hands over a hard-linked file or what a symlink points to", async () => {
    await link(outside, path.join(root, "hard"));
    await symlink(outside, path.join(root, "soft"));
    const lent = await lendTree(root, { uid: STEP });
    try {
      expect((await stat(outside)).uid).toBe(process.getuid!());
      expect((await lstat(path.join(root, "soft"))).uid).toBe(process.getuid!());
    } finally {
      await lent.giveBack();
    }
  });

  it("refuses a folder the uid cannot reach, changing nothing", async () => {
    await chmod(base, 0o700);
    await expect(lendTree(root, { uid: STEP })).rejects.toThrow(
      /cannot be entered by the step uid/,
    );
    expect((await stat(root)).uid).toBe(process.getuid!());
  });
});
