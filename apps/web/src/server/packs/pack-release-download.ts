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
  assets?: { name?: unknown; url?: unknown; browser_download_url?: unknown }[];
};

const notFound = (message: string) =>
  new AppError("USER.PACK.RELEASE_NOT_FOUND", message, { location: { path: "source" } });

/** The token goes to the GitHub API's own origin only (the egress fetch drops it on a redirect elsewhere). */
const authOf = (token: string | undefined): Record<string, string> =>
  token === undefined ? {} : { Authorization: `Bearer ${token}` };

/** The release JSON, or undefined for a 404. */
const releaseAt = async (
  egress: WebEgress,
  path: string,
  token: string | undefined,
): Promise<Release | undefined> => {
  const res = await egress.pack(`${egress.githubApiUrl.replace(/\/+$/, "")}${path}`, {
    headers: {
      Accept: "application/vnd.github+json",
      "User-Agent": "switchyard",
      ...authOf(token),
    },
  });
  if (res.status === 404) return undefined;
  if (!res.ok) throw notFound(`the GitHub API answered ${res.status} for the release (${path})`);
  return (await res.json()) as Release;
};

type Asset = { name: string; url: string; apiUrl?: string };

/**
 * An asset: with a token, from the API (as GitHub serves a private repository's assets), which
 * redirects to a signed address on another host that gets no token; else its public address.
 */
const download = async (egress: WebEgress, asset: Asset, token: string | undefined) => {
  const api = new URL(egress.githubApiUrl).origin;
  const viaApi = token !== undefined && asset.apiUrl && new URL(asset.apiUrl).origin === api;
  const res = viaApi
    ? await egress.pack(asset.apiUrl!, {
        headers: {
          Accept: "application/octet-stream",
          "User-Agent": "switchyard",
          ...authOf(token),
        },
      })
    : await egress.pack(asset.url, { headers: { "User-Agent": "switchyard" } });
  if (!res.ok) throw notFound(`downloading ${asset.name} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
};

/** `token`: a GitHub token for a private repository (pack-token.ts), sent to the API only. */
export const downloadPackRelease = async (
  given: (() => WebEgress) | undefined,
  source: string,
  token?: string,
) => {
  const egress = egressOr(given);
  const spec = releaseSpec(source);
  const repo = `/repos/${encodeURIComponent(spec.owner)}/${encodeURIComponent(spec.repo)}`;
  const bare = spec.version?.replace(/^v/, "");
  const release =
    bare === undefined
      ? await releaseAt(egress, `${repo}/releases/latest`, token)
      : ((await releaseAt(egress, `${repo}/releases/tags/v${bare}`, token)) ??
        (await releaseAt(egress, `${repo}/releases/tags/${bare}`, token)));
  const repository = `${spec.owner}/${spec.repo}`;
  if (!release)
    throw notFound(
      `${repository} has no release${bare === undefined ? "" : ` ${bare}`} on GitHub (or the repository is private: name a team secret holding a GitHub token that can read it, tokenSecret)`,
    );
  const assets = (release.assets ?? []).flatMap((a): Asset[] =>
    typeof a.name === "string" && typeof a.browser_download_url === "string"
      ? [
          {
            name: a.name,
            url: a.browser_download_url,
            ...(typeof a.url === "string" ? { apiUrl: a.url } : {}),
          },
        ]
      : [],
  );
  const archive = assets.find((a) => a.name.endsWith(".tar.gz"));
  const checksums = assets.find((a) => a.name === "checksums.txt");
  if (!archive || !checksums)
    throw notFound(
      `the release ${String(release.tag_name)} of ${repository} needs a .tar.gz asset and checksums.txt`,
    );
  const [bytes, sums] = await Promise.all([
    download(egress, archive, token),
    download(egress, checksums, token),
  ]);
  verifyChecksum(bytes, archive.name, sums.toString("utf8"));
  return { archive: bytes, repository };
};
