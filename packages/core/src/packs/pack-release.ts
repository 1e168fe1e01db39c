/**
 * A pack named by its GitHub release (`owner/repo[@version]`, AWF's install form) and the
 * SHA-256 check of the downloaded archive against the release's checksums.txt.
 */
import { createHash } from "node:crypto";
import { AppError } from "../errors";

type ReleaseSpec = { owner: string; repo: string; version?: string };

const PART = /^[A-Za-z0-9_.-]{1,100}$/;
const EXACT = /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** `owner/repo` or `owner/repo@1.2.0` (or `@v1.2.0`); ranges are refused, as AWF does. */
export const releaseSpec = (source: string): ReleaseSpec => {
  const [repoPart, version, extra] = source.trim().split("@");
  const [owner, repo, more] = (repoPart ?? "").split("/");
  const bad = (message: string) =>
    new AppError("USER.PACK.INVALID_SOURCE", message, { location: { path: "source" } });
  if (
    extra !== undefined ||
    more !== undefined ||
    !owner ||
    !repo ||
    !PART.test(owner) ||
    !PART.test(repo)
  )
    throw bad(`"${source}" is not owner/repo or owner/repo@version`);
  if (owner === "." || owner === ".." || repo === "." || repo === "..")
    throw bad(`"${source}" is not owner/repo or owner/repo@version`);
  if (version !== undefined && !EXACT.test(version))
    throw bad(
      `version "${version}" must be an exact semantic version such as 1.2.0 (ranges are not accepted)`,
    );
  return { owner, repo, ...(version === undefined ? {} : { version }) };
};

/**
 * Checks `archive` against the line of checksums.txt naming `fileName`
 * (`<sha256>  <name>`, GoReleaser's form).
 */
export const verifyChecksum = (archive: Buffer, fileName: string, checksums: string) => {
  const line = checksums
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .find((parts) => parts[1]?.replace(/^\*/, "") === fileName);
  if (!line?.[0])
    throw new AppError("USER.PACK.CHECKSUM_MISMATCH", `checksums.txt has no line for ${fileName}`, {
      location: { file: "checksums.txt" },
    });
  const actual = createHash("sha256").update(archive).digest("hex");
  if (actual !== line[0].toLowerCase())
    throw new AppError(
      "USER.PACK.CHECKSUM_MISMATCH",
      `${fileName}: its SHA-256 is not the one checksums.txt gives; the download was not installed`,
      { location: { file: fileName } },
    );
};
