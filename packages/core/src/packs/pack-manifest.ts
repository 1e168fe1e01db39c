/**
 * Reads a workflow pack's manifest.yaml as AWF checks it: a lowercase name that is not one
 * of the reserved scope tokens, a SemVer version, an awf_version constraint, the workflows it
 * lists; plugins it needs are warnings, since a pack installs without them.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from "yaml";
import { AppError } from "../errors";
import { checkAwfVersion } from "./awf-version";

export type PackManifest = {
  name: string;
  version: string;
  description: string;
  author: string;
  license: string;
  awfVersion: string;
  workflows: string[];
  plugins: Record<string, string>;
};

export const MANIFEST_FILE = "manifest.yaml";
const PACK_NAME = /^[a-z][a-z0-9-]*$/;
/** AWF's API uses these as URL scopes (`local` for a project's own workflows). */
const RESERVED_PACK_NAMES = ["local", "global"] as const;
const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
const WORKFLOW_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const KNOWN = [
  "name",
  "version",
  "description",
  "author",
  "license",
  "awf_version",
  "workflows",
  "plugins",
];

type ManifestResult = {
  manifest?: PackManifest;
  errors: AppError[];
  warnings: AppError[];
};

/** The name check alone, as install and remove by name use it. */
const packNameProblem = (name: string): string | undefined => {
  if ((RESERVED_PACK_NAMES as readonly string[]).includes(name))
    return `pack name "${name}" is reserved — use a different name`;
  if (!PACK_NAME.test(name))
    return `pack name "${name}" must be lowercase letters, digits and hyphens, starting with a letter (^[a-z][a-z0-9-]*$)`;
  return undefined;
};

export const readPackManifest = (source: string): ManifestResult => {
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, uniqueKeys: true });
  const errors: AppError[] = [];
  const warnings: AppError[] = [];
  const where = (path: string, node?: Node | null) => {
    const offset = node?.range?.[0];
    const pos = offset === undefined ? undefined : lines.linePos(offset);
    return { file: MANIFEST_FILE, path, ...(pos ? { line: pos.line, column: pos.col } : {}) };
  };
  const fail = (
    path: string,
    message: string,
    node?: Node | null,
    code:
      | "USER.PACK.INVALID_MANIFEST"
      | "USER.PACK.RESERVED_NAME"
      | "USER.PACK.AWF_VERSION_INCOMPATIBLE" = "USER.PACK.INVALID_MANIFEST",
  ) =>
    errors.push(
      new AppError(code, `${MANIFEST_FILE}: ${path}: ${message}`, { location: where(path, node) }),
    );
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const pos = lines.linePos(e.pos[0]);
    errors.push(
      new AppError("USER.PACK.INVALID_MANIFEST", `${MANIFEST_FILE}: ${e.message.split("\n")[0]}`, {
        location: { file: MANIFEST_FILE, line: pos.line, column: pos.col },
      }),
    );
    return { errors, warnings };
  }
  const root = doc.contents;
  if (!isMap(root)) {
    fail("", "must be a mapping of name, version, awf_version, workflows, ...", root);
    return { errors, warnings };
  }
  const nodeOf = (key: string) => {
    const pair = root.items.find((p) => isScalar(p.key) && p.key.value === key);
    return pair?.value as Node | null | undefined;
  };
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : "";
    if (!KNOWN.includes(key)) fail(key, `unknown field (known: ${KNOWN.join(", ")})`, pair.key);
  }
  const str = (key: string, required: boolean) => {
    const node = nodeOf(key);
    if (node === undefined || node === null || (isScalar(node) && node.value === null)) {
      if (required) fail(key, "is required", root);
      return "";
    }
    if (!isScalar(node) || (typeof node.value !== "string" && typeof node.value !== "number")) {
      fail(key, "must be text", node);
      return "";
    }
    return String(node.value);
  };
  const name = str("name", true);
  if (name) {
    const problem = packNameProblem(name);
    if (problem)
      fail(
        "name",
        problem,
        nodeOf("name"),
        (RESERVED_PACK_NAMES as readonly string[]).includes(name)
          ? "USER.PACK.RESERVED_NAME"
          : "USER.PACK.INVALID_MANIFEST",
      );
  }
  const version = str("version", true);
  if (version && !SEMVER.test(version))
    fail("version", `"${version}" is not a semantic version (such as 1.2.0)`, nodeOf("version"));
  const awfVersion = str("awf_version", true);
  if (awfVersion) {
    const check = checkAwfVersion(awfVersion);
    if (!check.ok)
      fail(
        "awf_version",
        check.message,
        nodeOf("awf_version"),
        check.reason === "incompatible"
          ? "USER.PACK.AWF_VERSION_INCOMPATIBLE"
          : "USER.PACK.INVALID_MANIFEST",
      );
  }
  const workflows: string[] = [];
  const wfNode = nodeOf("workflows");
  if (wfNode === undefined || wfNode === null) fail("workflows", "is required", root);
  else if (!isSeq(wfNode) || wfNode.items.length === 0)
    fail("workflows", "must be a list of workflow names", wfNode);
  else
    wfNode.items.forEach((item, i) => {
      const v = isScalar(item) ? item.value : undefined;
      if (typeof v !== "string" || !WORKFLOW_NAME.test(v))
        fail(`workflows[${i}]`, "must be a workflow name (letters, digits, _ and -)", item as Node);
      else if (workflows.includes(v))
        fail(`workflows[${i}]`, `"${v}" is listed twice`, item as Node);
      else workflows.push(v);
    });
  const plugins: Record<string, string> = {};
  const plNode = nodeOf("plugins");
  if (plNode !== undefined && plNode !== null) {
    if (!isMap(plNode)) fail("plugins", "must map plugin names to version constraints", plNode);
    else
      for (const pair of plNode.items) {
        const plugin = isScalar(pair.key) ? String(pair.key.value) : "";
        const raw: unknown = isScalar(pair.value) ? pair.value.value : undefined;
        const constraint = typeof raw === "string" || typeof raw === "number" ? String(raw) : "";
        plugins[plugin] = constraint;
        warnings.push(
          new AppError(
            "USER.PACK.PLUGIN_REQUIRED",
            `pack requires plugin "${plugin}"${constraint ? ` (${constraint})` : ""}: Switchyard's plugins are team connectors; add a connector named "${plugin}" for the workflows that use it`,
            { location: where(`plugins.${plugin}`, pair.key as Node) },
          ),
        );
      }
  }
  if (errors.length > 0) return { errors, warnings };
  return {
    manifest: {
      name,
      version: version.replace(/^v/, ""),
      description: str("description", false),
      author: str("author", false),
      license: str("license", false),
      awfVersion,
      workflows,
      plugins,
    },
    errors,
    warnings,
  };
};
