/**
 * Downloads a workflow pack from its GitHub release, as `awf workflow install owner/repo`
 * does: the release (the latest, or the tag of the version asked for) from the API at
 * SWITCHYARD_GITHUB_API_URL, its .tar.gz asset and checksums.txt, and the archive's
 * SHA-256 checked before anything reads it. Every request goes through the egress guard.
 */
import { AppError } from "@switchyard/core/errors";
import { releaseSpec, verifyChecksum } from "@switchyard/core/packs";
import { egressOr, type WebEgress } from "../egress";

type Release = {
  tag_name?: unknown;
  assets?: { name?: unknown; browser_download_url?: unknown }[];
};

const notFound = (message: string) =>
  new AppError("USER.PACK.RELEASE_NOT_FOUND", message, { location: { path: "source" } });

const headers = { Accept: "application/vnd.github+json", "User-Agent": "switchyard" };

/** The release JSON, or undefined for a 404. */
const releaseAt = async (egress: WebEgress, path: string): Promise<Release | undefined> => {
  const res = await egress.pack(`${egress.githubApiUrl.replace(/\/+$/, "")}${path}`, { headers });
  if (res.status === 404) return undefined;
  if (!res.ok) throw notFound(`the GitHub API answered ${res.status} for the release (${path})`);
  return (await res.json()) as Release;
};

const download = async (egress: WebEgress, url: string, what: string) => {
  const res = await egress.pack(url, { headers: { "User-Agent": "switchyard" } });
  if (!res.ok) throw notFound(`downloading ${what} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
};

export const downloadPackRelease = async (given: (() => WebEgress) | undefined, source: string) => {
  const egress = egressOr(given);
  const spec = releaseSpec(source);
  const repo = `/repos/${encodeURIComponent(spec.owner)}/${encodeURIComponent(spec.repo)}`;
  const bare = spec.version?.replace(/^v/, "");
  const release =
    bare === undefined
      ? await releaseAt(egress, `${repo}/releases/latest`)
      : ((await releaseAt(egress, `${repo}/releases/tags/v${bare}`)) ??
        (await releaseAt(egress, `${repo}/releases/tags/${bare}`)));
  const repository = `${spec.owner}/${spec.repo}`;
  if (!release)
    throw notFound(
      `${repository} has no release${bare === undefined ? "" : ` ${bare}`} on GitHub (or the repository is not public)`,
    );
  const assets = (release.assets ?? []).flatMap((a) =>
    typeof a.name === "string" && typeof a.browser_download_url === "string"
      ? [{ name: a.name, url: a.browser_download_url }]
      : [],
  );
  const archive = assets.find((a) => a.name.endsWith(".tar.gz"));
  const checksums = assets.find((a) => a.name === "checksums.txt");
  if (!archive || !checksums)
    throw notFound(
      `the release ${String(release.tag_name)} of ${repository} needs a .tar.gz asset and checksums.txt`,
    );
  const [bytes, sums] = await Promise.all([
    download(egress, archive.url, archive.name),
    download(egress, checksums.url, checksums.name),
  ]);
  verifyChecksum(bytes, archive.name, sums.toString("utf8"));
  return { archive: bytes, repository };
};
