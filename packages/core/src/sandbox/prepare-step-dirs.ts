/**
 * Makes a step's private folders usable by its uid before launch: at `strict` the
 * workspace, HOME and temp folder belong to the step uid (mode 0700), and every folder
 * above a bound path must be traversable by it, because bwrap resolves bind sources as
 * the step uid. Fails with a readable error instead of bwrap's. A few local stat calls per
 * step, made synchronously: through the thread pool they cost more than the work itself.
 */
import { chmodSync, chownSync, lstatSync, statSync } from "node:fs";
import path from "node:path";
import { AppError } from "../errors";
import type { SandboxHost, SandboxSpec } from "./sandbox-types";

const unavailable = (message: string) => new AppError("SYSTEM.SANDBOX_UNAVAILABLE", message);

/** Fails unless `uid` can enter every folder above `dir` (bwrap resolves bind sources as it). */
export const assertTraversable = async (dir: string, uid: number, gid: number = uid) =>
  traversable(dir, uid, gid);

const traversable = (dir: string, uid: number, gid: number) => {
  for (let d = path.dirname(path.resolve(dir)); ; d = path.dirname(d)) {
    const s = statSync(d);
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
  const found = own.map((dir) => {
    const s = lstatSync(dir, { throwIfNoEntry: false });
    if (!s?.isDirectory())
      throw new AppError("SYSTEM.SANDBOX_INVALID_SPEC", `${dir} is not a directory`);
    return s;
  });
  if (host.level !== "strict" || spec.uid === undefined) return;
  const uid = spec.uid;
  const gid = spec.gid ?? uid;
  own.forEach((dir, i) => {
    const s = found[i]!;
    // What an earlier step of the run may have changed (it owns these) is put back.
    if (s.uid !== uid || s.gid !== gid) chownSync(dir, uid, gid);
    if ((s.mode & 0o7777) !== 0o700) chmodSync(dir, 0o700);
  });
  for (const target of [...own, ...(spec.binds ?? []).map((b) => b.path)])
    traversable(target, uid, gid);
};
