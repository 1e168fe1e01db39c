/**
 * Validates a workflow bundle in its team's context with the same code the worker and the
 * CLI use: the YAML itself, the files it references (in the bundle), its sub-workflows (by
 * name among the team's workflows), its connectors (the team's, open to its lane) and its
 * lane's approval rules (none on built-ins where a step leaves them to the CLI).
 * A bundle over the size limits is refused before any of that, as saving refuses it.
 */
import type { AppError, ErrorCode } from "@switchyard/core/errors";
import {
  bundleReader,
  parseWorkflow,
  validateWorkflow,
  type ConnectorCatalog,
  type ParseResult,
  type WorkflowResolver,
} from "@switchyard/core/workflow";
import { mayReachConnector } from "@switchyard/core/policy";
import {
  connectorRules,
  currentVersionIdByName,
  laneApprovalRules,
  loadBundle,
  type Db,
} from "@switchyard/db";
import { checkBundleLimits } from "./bundle-limits";

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

const teamResolver = (db: Db, teamId: string): WorkflowResolver => ({
  resolve: async (name) => {
    const versionId = await currentVersionIdByName(db, teamId, name);
    if (!versionId) return undefined;
    const bundle = await loadBundle(db, teamId, versionId);
    return bundle
      ? parseWorkflow(bundle.entry, `${name}/${bundle.version.entryPath}`).workflow
      : undefined;
  },
});

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
});

export const validateBundle = async (
  db: Db,
  teamId: string,
  bundle: { entry: string; files: Record<string, string> },
): Promise<ParseResult> => {
  checkBundleLimits(bundle.files);
  const source = bundle.files[bundle.entry];
  if (source === undefined) return parseWorkflow("", bundle.entry);
  return validateWorkflow(source, bundle.entry, {
    files: bundleReader(bundle.files, bundle.entry),
    resolver: teamResolver(db, teamId),
    catalog: teamCatalog(db, teamId),
    approvals: { laneRules: (lane) => laneApprovalRules(db, teamId, lane) },
  });
};
