/**
 * Validates a workflow bundle in its team's context with the same code the worker and the
 * CLI use: the YAML itself, the files it references (in the bundle), its sub-workflows (by
 * name among the team's workflows), its connectors (the team's, open to its lane) and its
 * lane's approval rules (none on built-ins where a step leaves them to the CLI).
 * A bundle over the size limits is refused before any of that, as saving refuses it.
 */
import type { AppError, ErrorCode } from "@switchyard/core/errors";
import {
  TEMPLATE_DIR,
  bundleReader,
  parseWorkflow,
  templateNameOf,
  validateWorkflow,
  type ConnectorCatalog,
  type ParseResult,
  type TemplateLibrary,
  type WorkflowResolver,
  bundleTemplates,
} from "@switchyard/core/workflow";
import { mayReachConnector, resolveCalleeName } from "@switchyard/core/policy";
import {
  connectorKnownTools,
  connectorRules,
  currentVersionIdByName,
  findWorkflowByName,
  laneApprovalRules,
  loadBundle,
  teamTemplateLibrary,
  type Db,
} from "@switchyard/db";
import { checkBundleLimits } from "./bundle-limits";
import { pinSkills } from "./pin-skills";

export type Diagnostic = {
  code: ErrorCode;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  path?: string;
};

export const toDiagnostic = (e: AppError): Diagnostic => ({
  code: e.code,
  message: e.message,
  ...e.location,
});

/** A pack being installed: its name and its workflows as the archive has them, by short name. */
export type InstallingPack = {
  name: string;
  workflows: ReadonlyMap<string, { entryPath: string; files: Record<string, string> }>;
};

/**
 * call_workflow by name among the team's current versions, from the caller's pack first
 * (calleeNames). While a pack is installed, its own workflows are the archive's, not the
 * versions the team has now. A sub-workflow is known by its file (`<name>/<entry>`), which
 * tells which pack its own calls look in; any other file is the workflow being validated.
 */
const teamResolver = (db: Db, teamId: string, pack?: InstallingPack): WorkflowResolver => {
  const packOfFile = new Map<string, string | null>();
  const inArchive = (name: string) =>
    pack && name.startsWith(`${pack.name}/`)
      ? pack.workflows.get(name.slice(pack.name.length + 1))
      : undefined;
  const stored = async (name: string) => {
    const versionId = await currentVersionIdByName(db, teamId, name);
    return versionId ? loadBundle(db, teamId, versionId) : undefined;
  };
  return {
    resolve: async (written, from) => {
      const callerPack = packOfFile.has(from.file) ? packOfFile.get(from.file) : pack?.name;
      const name = await resolveCalleeName(callerPack, written, async (n) =>
        pack && n.startsWith(`${pack.name}/`)
          ? inArchive(n) !== undefined
          : (await currentVersionIdByName(db, teamId, n)) !== undefined,
      );
      if (name === undefined) return undefined;
      const archived = inArchive(name);
      const bundle = archived ? undefined : await stored(name);
      const entryPath = archived?.entryPath ?? bundle?.version.entryPath;
      const source = archived ? archived.files[archived.entryPath] : bundle?.entry;
      if (entryPath === undefined || source === undefined) return undefined;
      const file = `${name}/${entryPath}`;
      packOfFile.set(
        file,
        archived ? pack!.name : ((await findWorkflowByName(db, teamId, name))?.pack ?? null),
      );
      const templates = archived
        ? await teamTemplateLibrary(db, teamId)
        : bundleTemplates(bundle!.files);
      return parseWorkflow(source, file, undefined, { templates }).workflow;
    },
  };
};

const teamCatalog = (db: Db, teamId: string): ConnectorCatalog => ({
  check: async (ids, lane) => {
    const rules = await connectorRules(db, teamId, ids);
    return Object.fromEntries(
      ids.map((id) => {
        const refused = mayReachConnector(rules.get(id), id, lane ?? "default");
        return [
          id,
          !refused ? "ok" : refused.code === "USER.MCP_PROXY.LANE_DENIED" ? "denied" : "unknown",
        ];
      }),
    );
  },
  tools: async (ids) => Object.fromEntries(await connectorKnownTools(db, teamId, ids)),
});

/**
 * The bundle with `.awf/templates/` holding exactly the templates its workflow uses, each
 * the team's current version, or the bundle's own copy of one the team has not (a copy a
 * saved version pinned before the team's template was deleted, or one sent with the files);
 * and the workflow's one parse, which reads each template as its pinned copy will be.
 */
const pinTemplates = async (
  db: Db,
  teamId: string,
  entry: string,
  files: Record<string, string>,
) => {
  const source = files[entry];
  const team = await teamTemplateLibrary(db, teamId);
  const own = bundleTemplates(files);
  const library: TemplateLibrary = {
    find: (name) => {
      const found = team.find(name) ?? own.find(name);
      return found && { name, source: found.source, file: `${TEMPLATE_DIR}/${name}.yaml` };
    },
    names: () => [...new Set([...team.names(), ...own.names()])].sort(),
  };
  const parsed =
    source === undefined
      ? undefined
      : parseWorkflow(source, entry, undefined, { templates: library });
  const pinned = Object.fromEntries(Object.entries(files).filter(([p]) => !templateNameOf(p)));
  for (const use of parsed?.templates ?? []) {
    const found = library.find(use.name);
    if (found) pinned[`${TEMPLATE_DIR}/${use.name}.yaml`] = found.source;
  }
  return { files: pinned, parsed };
};

/** The bundle's validation, and its files as saving stores them (templates and skills pinned). */
export const validateBundle = async (
  db: Db,
  teamId: string,
  bundle: { entry: string; files: Record<string, string> },
  /** the pack the bundle is a workflow of, while that pack is installed */
  pack?: InstallingPack,
): Promise<ParseResult & { files: Record<string, string> }> => {
  checkBundleLimits(bundle.files);
  const withTemplates = await pinTemplates(db, teamId, bundle.entry, bundle.files);
  const { parsed } = withTemplates;
  const files = await pinSkills(db, teamId, bundle.entry, withTemplates.files, parsed?.workflow);
  // What is stored is the bundle with its templates and skills: it, too, keeps within the limits.
  checkBundleLimits(files, true);
  const source = files[bundle.entry];
  if (source === undefined || !parsed) return { ...parseWorkflow("", bundle.entry), files };
  const result = await validateWorkflow(source, bundle.entry, {
    parsed,
    templates: bundleTemplates(files),
    files: bundleReader(files, bundle.entry),
    resolver: teamResolver(db, teamId, pack),
    catalog: teamCatalog(db, teamId),
    approvals: { laneRules: (lane) => laneApprovalRules(db, teamId, lane) },
  });
  return { ...result, files };
};
