/**
 * Workflow bundles: the YAML plus every file it references, each stored once per team by
 * its SHA-256, and a version that maps paths to hashes. A bundle's own hash covers the
 * sorted path→hash list, so the same files always make the same bundle.
 */
import { createHash } from "node:crypto";
import { bundleTemplates, parseWorkflow, type ParseResult } from "@switchyard/core/workflow";
import type { Db } from "../client";
import type { Prisma, WorkflowVersion } from "../generated/prisma/client";

type BundleFiles = Record<string, string>;

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

const hashBundle = (files: BundleFiles) => {
  const manifest: Record<string, string> = {};
  for (const path of Object.keys(files).sort()) manifest[path] = sha256(files[path]!);
  return { bundleHash: sha256(JSON.stringify(manifest)), manifest };
};

type SaveVersionInput = {
  teamId: string;
  name: string;
  /**
   * The workflow's description, set when the workflow is created.
   * @default ""
   */
  description?: string;
  /**
   * The lane the workflow is created in.
   * @default "default"
   */
  lane?: string;
  /**
   * The bundle file the workflow is read from.
   * @default "workflow.yaml"
   */
  entryPath?: string;
  files: BundleFiles;
  createdById?: string;
  /**
   * The workflow pack it comes from: set on the workflow, which is also taken out of the
   * archive (a pack installed again after it was removed brings its workflows back).
   */
  pack?: string;
  /**
   * The git repository it is synced from, its file there and the commit read: set on the
   * workflow (taken out of the archive too) and the commit on the new version.
   */
  git?: { sourceId: string; path: string; commit: string };
};

/** Creates the workflow if needed and a new version unless the bundle is unchanged. */
export const saveWorkflowVersion = async (db: Db, input: SaveVersionInput) =>
  db.$transaction((tx) => saveWorkflowVersionIn(tx, input));

/** saveWorkflowVersion inside the caller's transaction. */
export const saveWorkflowVersionIn = async (
  tx: Prisma.TransactionClient,
  input: SaveVersionInput,
) => {
  const { bundleHash, manifest } = hashBundle(input.files);
  const fromPack = input.pack === undefined ? {} : { pack: input.pack, archivedAt: null };
  const fromGit =
    input.git === undefined
      ? {}
      : { gitSourceId: input.git.sourceId, gitPath: input.git.path, archivedAt: null };
  const workflow = await tx.workflow.upsert({
    where: { teamId_name: { teamId: input.teamId, name: input.name } },
    create: {
      teamId: input.teamId,
      name: input.name,
      description: input.description ?? "",
      lane: input.lane ?? "default",
      ...fromPack,
      ...fromGit,
    },
    update: {
      description: input.description ?? undefined,
      lane: input.lane ?? undefined,
      ...fromPack,
      ...fromGit,
    },
    include: { currentVersion: true },
  });
  if (workflow.currentVersion?.bundleHash === bundleHash) return workflow.currentVersion;
  for (const [path, content] of Object.entries(input.files)) {
    const hash = manifest[path]!;
    await tx.bundleBlob.upsert({
      where: { teamId_hash: { teamId: input.teamId, hash } },
      create: {
        teamId: input.teamId,
        hash,
        content: Buffer.from(content),
        size: Buffer.byteLength(content),
      },
      update: {},
    });
  }
  const last = await tx.workflowVersion.aggregate({
    where: { workflowId: workflow.id, teamId: input.teamId },
    _max: { number: true },
  });
  const version = await tx.workflowVersion.create({
    data: {
      teamId: input.teamId,
      workflowId: workflow.id,
      number: (last._max.number ?? 0) + 1,
      bundleHash,
      files: manifest,
      entryPath: input.entryPath ?? "workflow.yaml",
      createdById: input.createdById,
      commitId: input.git?.commit ?? null,
    },
  });
  await tx.workflow.update({
    where: { id: workflow.id },
    data: { currentVersionId: version.id },
  });
  return version;
};

type LoadedBundle = { version: WorkflowVersion; files: BundleFiles; entry: string };

/**
 * Versions never change once saved, so a process keeps the last ones it read (by team and
 * version, bounded in count and size): a run's worker and a start on the web read the same
 * few versions again and again.
 */
const recentBundles = new Map<string, LoadedBundle>();
const RECENT_BUNDLES = 128;
const RECENT_BUNDLE_BYTES = 256 * 1024;

const remember = (key: string, bundle: LoadedBundle) => {
  let size = 0;
  for (const text of Object.values(bundle.files)) size += text.length;
  if (size > RECENT_BUNDLE_BYTES) return;
  Object.freeze(bundle.files);
  recentBundles.set(key, bundle);
  if (recentBundles.size > RECENT_BUNDLES) recentBundles.delete(recentBundles.keys().next().value!);
};

const parses = new WeakMap<LoadedBundle, Map<string, ParseResult>>();

/** Freezes a parsed workflow through and through: every run of its version shares it. */
const freezeDeep = (value: unknown, seen = new Set<unknown>()) => {
  if (!value || typeof value !== "object" || seen.has(value)) return;
  seen.add(value);
  // A workflow's states are a Map: its entries are frozen too (the Map itself cannot be).
  if (value instanceof Map || value instanceof Set)
    for (const entry of value.values()) freezeDeep(entry, seen);
  for (const key of Object.keys(value)) freezeDeep((value as Record<string, unknown>)[key], seen);
  Object.freeze(value);
};

/**
 * A bundle's entry parsed, named `file` in what it reports (the entry's path unless told).
 * A version never changes, so the parse of a kept bundle is kept with it, frozen: a run's
 * start on the web and its worker parse a version once, not once a run.
 */
export const parseBundle = (bundle: LoadedBundle, file = bundle.version.entryPath): ParseResult => {
  let byFile = parses.get(bundle);
  if (!byFile) parses.set(bundle, (byFile = new Map<string, ParseResult>()));
  const kept = byFile.get(file);
  if (kept) return kept;
  const parsed = parseWorkflow(bundle.entry, file, undefined, {
    templates: bundleTemplates(bundle.files),
  });
  freezeDeep(parsed.workflow);
  byFile.set(file, parsed);
  return parsed;
};

/** Reads a version's files back, checking each blob against its hash. */
export const loadBundle = async (
  db: Db,
  teamId: string,
  versionId: string,
): Promise<LoadedBundle | undefined> => {
  const key = `${teamId}/${versionId}`;
  const recent = recentBundles.get(key);
  if (recent) {
    // Most recently used last: the oldest goes first.
    recentBundles.delete(key);
    recentBundles.set(key, recent);
    return recent;
  }
  const loaded = await readBundle(db, teamId, versionId);
  if (loaded) remember(key, loaded);
  return loaded;
};

const readBundle = async (
  db: Db,
  teamId: string,
  versionId: string,
): Promise<LoadedBundle | undefined> => {
  const version = await db.workflowVersion.findFirst({ where: { id: versionId, teamId } });
  if (!version) return undefined;
  const manifest = version.files as Record<string, string>;
  const blobs = await db.bundleBlob.findMany({
    where: { teamId, hash: { in: Object.values(manifest) } },
  });
  const byHash = new Map(blobs.map((b) => [b.hash, Buffer.from(b.content).toString("utf8")]));
  const files: BundleFiles = {};
  for (const [path, hash] of Object.entries(manifest)) {
    const content = byHash.get(hash);
    if (content === undefined || sha256(content) !== hash) {
      throw new Error(`bundle ${version.bundleHash}: file ${path} is missing or corrupt`);
    }
    files[path] = content;
  }
  return { version, files, entry: files[version.entryPath] ?? "" };
};
