/**
 * Kills what a crashed owner left behind: every process whose environment carries the
 * owner's tag or the tag of one of its runs (`<owner>/<run>`: the launcher, bwrap and
 * everything inside), plus, when given, every process of the owner's step uids. The
 * worker calls it at boot, before taking jobs.
 */
import { OWNER_TAG } from "./build-launch";
import { killUntilGone, pidsOfUid, pidsWithEnv } from "./proc-scan";

type SweepOptions = { uids?: number[] };

/** Kills every process a crashed owner left behind. */
export const sweepLeftovers = async (
  ownerId: string,
  options: SweepOptions = {},
): Promise<{ killed: number[] }> => {
  const uids = new Set(options.uids ?? []);
  // Never root, never ourselves: only dedicated step uids may be swept wholesale.
  uids.delete(0);
  uids.delete(process.getuid?.() ?? 0);
  const { killed } = await killUntilGone(() => [
    ...new Set([
      ...pidsWithEnv(OWNER_TAG, ownerId, { below: true }),
      ...[...uids].flatMap(pidsOfUid),
    ]),
  ]);
  return { killed };
};
