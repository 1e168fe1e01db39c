/**
 * Makes a step's private folders usable by its uid before launch: at `strict` the
 * workspace, HOME and temp folder belong to the step uid (mode 0700), and every folder
 * above a bound path must be traversable by it, because bwrap resolves bind sources as
 * the step uid. Fails with a readable error instead of bwrap's.
 */
import { chmod, chown, lstat, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";
import type { SandboxHost, SandboxSpec } from "./sandbox-types";

const unavailable = (message: string) => new AppError("SYSTEM.SANDBOX_UNAVAILABLE", message);

/** Fails unless `uid` can enter every folder above `dir` (bwrap resolves bind sources as it). */
export const assertTraversable = async (dir: string, uid: number, gid: number = uid) => {
  for (let d = path.dirname(path.resolve(dir)); ; d = path.dirname(d)) {
    const s = await stat(d);
    const bit = s.uid === uid ? 0o100 : s.gid === gid ? 0o010 : 0o001;
    if ((s.mode & bit) === 0) {
      throw unavailable(
        `${d} (mode ${(s.mode & 0o777).toString(8)}) cannot be entered by the step uid ${uid}, so ${dir} cannot be bound into the sandbox: give ${d} mode 0711 (chmod o+x ${d}) or use a folder outside it`,
      );
    }
    if (d === path.dirname(d)) return;
  }
};

export const prepareStepDirs = async (host: SandboxHost, spec: SandboxSpec): Promise<void> => {
  const own = [spec.workspace, spec.home, spec.tmp];
  for (const dir of own) {
    const s = await lstat(dir).catch(() => undefined);
    if (!s?.isDirectory())
      throw new AppError("SYSTEM.SANDBOX_INVALID_SPEC", `${dir} is not a directory`);
  }
  if (host.level !== "strict" || spec.uid === undefined) return;
  const uid = spec.uid;
  const gid = spec.gid ?? uid;
  for (const dir of own) {
    await chown(dir, uid, gid);
    await chmod(dir, 0o700);
  }
  for (const target of [...own, ...(spec.binds ?? []).map((b) => b.path)])
    await assertTraversable(target, uid, gid);
};
