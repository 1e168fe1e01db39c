/**
 * Reads a workflow pack's .tar.gz archive into its files, refusing what could escape or
 * exhaust the server before anything is stored: a size, an entry count and a per-file cap,
 * absolute or `..` paths, and links that lead outside the archive.
 */
import { posix } from "node:path";
import { gunzipSync } from "node:zlib";
import { AppError } from "../errors";

export type PackArchiveLimits = {
  /** the .tar.gz as uploaded or downloaded */
  compressedBytes: number;
  /** every entry unpacked, headers included */
  unpackedBytes: number;
  entries: number;
  fileBytes: number;
};

export const PACK_ARCHIVE_LIMITS: PackArchiveLimits = {
  compressedBytes: 5 * 1024 * 1024,
  unpackedBytes: 20 * 1024 * 1024,
  entries: 1000,
  fileBytes: 1024 * 1024,
};

const invalid = (message: string, path?: string) =>
  new AppError("USER.PACK.INVALID_ARCHIVE", message, {
    location: path === undefined ? { file: "archive" } : { file: path },
  });

const tooLarge = (message: string) =>
  new AppError("USER.PACK.ARCHIVE_TOO_LARGE", message, { location: { file: "archive" } });

const text = (b: Buffer, start: number, length: number) => {
  const slice = b.subarray(start, start + length);
  const end = slice.indexOf(0);
  return slice.subarray(0, end < 0 ? slice.length : end).toString("utf8");
};

const octal = (b: Buffer, start: number, length: number) => {
  const s = text(b, start, length).trim();
  return s === "" ? 0 : Number.parseInt(s, 8);
};

/** PAX extended header records: `<len> key=value\n`. */
const paxRecords = (data: Buffer) => {
  const out: Record<string, string> = {};
  for (const line of data.toString("utf8").split("\n")) {
    const m = /^\d+ ([^=]+)=(.*)$/s.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
};

/** A relative, normalised path inside the archive, or an error naming it. */
const safePath = (raw: string) => {
  const name = raw.replace(/^\.\//, "");
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name) || name.includes("\\"))
    throw invalid(`entry "${raw}" has an absolute path`, raw);
  const normal = posix.normalize(name);
  if (normal === ".." || normal.startsWith("../") || name.split("/").includes(".."))
    throw invalid(`entry "${raw}" leads outside the archive (..)`, raw);
  return normal.replace(/\/+$/, "");
};

type Link = { path: string; target: string };

/**
 * The archive's regular files by path (UTF-8 text). A single top folder holding
 * everything (`speckit-1.0.0/manifest.yaml`) is taken off.
 */
export const readPackArchive = (
  archive: Buffer,
  limits: PackArchiveLimits = PACK_ARCHIVE_LIMITS,
): Record<string, string> => {
  if (archive.length > limits.compressedBytes)
    throw tooLarge(`the archive is over ${limits.compressedBytes} bytes`);
  let tar: Buffer;
  try {
    tar = gunzipSync(archive, { maxOutputLength: limits.unpackedBytes });
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw tooLarge(`the archive unpacks to over ${limits.unpackedBytes} bytes`);
    throw invalid("not a gzip-compressed archive (.tar.gz)");
  }
  const files = new Map<string, Buffer>();
  const links: Link[] = [];
  let entries = 0;
  let pax: Record<string, string> = {};
  let longName: string | undefined;
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    if (text(header, 257, 5) !== "ustar" && text(header, 257, 6) !== "ustar ")
      throw invalid("not a tar archive (no ustar header)");
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 48);
    const data = tar.subarray(at + 512, at + 512 + size);
    if (data.length < size) throw invalid("the archive ends inside an entry");
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === "x") {
      pax = paxRecords(data);
      continue;
    }
    if (type === "g") continue;
    if (type === "L") {
      longName = text(data, 0, data.length);
      continue;
    }
    const prefix = text(header, 345, 155);
    const raw =
      pax.path ?? longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
    const linkTarget = pax.linkpath ?? text(header, 157, 100);
    pax = {};
    longName = undefined;
    entries += 1;
    if (entries > limits.entries)
      throw tooLarge(`the archive has more than ${limits.entries} entries`);
    const path = safePath(raw);
    if (path === "" || path === ".") continue;
    switch (type) {
      case "0":
      case "7":
        if (size > limits.fileBytes) throw tooLarge(`"${path}" is over ${limits.fileBytes} bytes`);
        files.set(path, Buffer.from(data));
        break;
      case "5":
        break;
      case "1":
      case "2":
        links.push({
          path,
          target: type === "1" ? linkTarget : posix.join(posix.dirname(path), linkTarget),
        });
        break;
      default:
        throw invalid(`entry "${path}" is a device, fifo or other special file`, path);
    }
  }
  // A link is a copy of its target's text: it counts toward the unpacked bytes, so a few
  // thousand links to one large file cannot make the reader hold gigabytes. A link to a link
  // listed later is resolved on a later pass.
  let bytes = [...files.values()].reduce((n, b) => n + b.length, 0);
  let pending = links;
  while (pending.length > 0) {
    const next: Link[] = [];
    for (const link of pending) {
      if (link.target.startsWith("/"))
        throw invalid(`link "${link.path}" leads outside the archive`, link.path);
      const target = posix.normalize(link.target);
      if (target === ".." || target.startsWith("../"))
        throw invalid(`link "${link.path}" leads outside the archive`, link.path);
      const content = files.get(target);
      if (!content) {
        next.push(link);
        continue;
      }
      bytes += content.length;
      if (bytes > limits.unpackedBytes)
        throw tooLarge(`the archive's files and links come to over ${limits.unpackedBytes} bytes`);
      files.set(link.path, content);
    }
    if (next.length === pending.length)
      throw invalid(`link "${next[0]!.path}" names no file of the archive`, next[0]!.path);
    pending = next;
  }
  const out: Record<string, string> = {};
  const top = topFolder([...files.keys()]);
  for (const [path, content] of files)
    out[top ? path.slice(top.length + 1) : path] = content.toString("utf8");
  return out;
};

/** The one folder every path sits in when the manifest is not at the root. */
const topFolder = (paths: string[]) => {
  if (paths.includes("manifest.yaml")) return undefined;
  const first = paths[0]?.split("/")[0];
  return first && paths.every((p) => p.startsWith(`${first}/`)) ? first : undefined;
};
