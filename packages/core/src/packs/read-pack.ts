/**
 * A workflow pack read from its archive: the manifest checked, each workflow it lists
 * present as workflows/<name>.yaml, and the files each pack workflow's bundle carries
 * (its own YAML at the bundle root, the pack's prompts/ and scripts/ beside it, so the
 * paths the pack's workflows name resolve as they do in the pack's folder).
 */
import { AppError } from "../errors";
import { readPackArchive, type PackArchiveLimits } from "./pack-archive";
import { MANIFEST_FILE, readPackManifest, type PackManifest } from "./pack-manifest";

type PackWorkflow = { name: string; entryPath: string; files: Record<string, string> };
type ReadPack = {
  manifest: PackManifest;
  readme: string;
  workflows: PackWorkflow[];
  warnings: AppError[];
};

const SHARED = /^(prompts|scripts)\//;

const failed = (errors: AppError[]) => {
  const first = errors[0]!;
  return new AppError(
    first.code,
    errors.length === 1 ? first.message : `${first.message} (and ${errors.length - 1} more)`,
    {
      location: first.location,
      details: { errors: errors.map((e) => ({ code: e.code, message: e.message, ...e.location })) },
    },
  );
};

/** Reads and checks the pack; throws the first problem (all of them in details.errors). */
export const readPack = (archive: Buffer, limits?: PackArchiveLimits): ReadPack => {
  const files = readPackArchive(archive, limits);
  const manifestText = files[MANIFEST_FILE] ?? files["manifest.yml"];
  if (manifestText === undefined)
    throw new AppError(
      "USER.PACK.INVALID_MANIFEST",
      `the archive has no ${MANIFEST_FILE} at its root`,
      {
        location: { file: MANIFEST_FILE },
      },
    );
  const { manifest, errors, warnings } = readPackManifest(manifestText);
  if (!manifest) throw failed(errors);
  const shared = Object.fromEntries(Object.entries(files).filter(([p]) => SHARED.test(p)));
  const missing: AppError[] = [];
  const workflows: PackWorkflow[] = [];
  manifest.workflows.forEach((name, i) => {
    const source = files[`workflows/${name}.yaml`] ?? files[`workflows/${name}.yml`];
    if (source === undefined) {
      missing.push(
        new AppError(
          "USER.PACK.MISSING_WORKFLOW",
          `${MANIFEST_FILE}: workflows[${i}]: workflow "${name}" has no file workflows/${name}.yaml in the pack`,
          { location: { file: MANIFEST_FILE, path: `workflows[${i}]` } },
        ),
      );
      return;
    }
    const entryPath = `${name}.yaml`;
    workflows.push({ name, entryPath, files: { ...shared, [entryPath]: source } });
  });
  if (missing.length > 0) throw failed(missing);
  return { manifest, readme: files["README.md"] ?? "", workflows, warnings };
};
