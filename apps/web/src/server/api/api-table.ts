/**
 * Every operation the API serves, by area: the table both surfaces are derived from. An
 * area's key is its tRPC namespace (`tokens.list`); its REST routes are its operations'
 * own paths. To add an operation, declare it in contract/<area>.types.ts and give it a
 * handler in the area's `*-api.ts`.
 */
import type { OperationSpec } from "../contract/operation";
import type { Route } from "../rest/route-kit";
import { accountApi } from "../account/account-api";
import { auditApi } from "../audit/audit-api";
import { budgetsApi } from "../budgets/budgets-api";
import { connectorsApi } from "../connectors/connectors-api";
import { instanceApi } from "../instance/instance-api";
import { lanesApi } from "../lanes/lanes-api";
import { invitationsApi, membersApi } from "../members/members-api";
import { modelsApi } from "../models/models-api";
import { notificationsApi } from "../notifications/notifications-api";
import { overviewApi } from "../overview/overview-api";
import { agentsApi, replayApi } from "../replay/replay-api";
import { runsApi } from "../runs/runs-api";
import { systemApi } from "../system/system-api";
import { teamsApi } from "../team/teams-api";
import { tokensApi } from "../tokens/tokens-api";
import { triggersApi } from "../triggers/triggers-api";
import { variablesApi } from "../variables/variables-api";
import { waitsApi } from "../waits/waits-api";
import { workflowsApi } from "../workflows/workflows-api";
import { templatesApi } from "../templates/templates-api";
import { skillsApi } from "../skills/skills-api";
import { packsApi } from "../packs/packs-api";
import { gitApi } from "../git/git-api";
import type { ImplementedArea } from "./implement";
import { restRoutesOf } from "./rest-of";
import { trpcRouterOf } from "./trpc-of";

const areas = {
  workflows: workflowsApi,
  templates: templatesApi,
  skills: skillsApi,
  packs: packsApi,
  git: gitApi,
  runs: runsApi,
  waits: waitsApi,
  replay: replayApi,
  agents: agentsApi,
  triggers: triggersApi,
  notifications: notificationsApi,
  tokens: tokensApi,
  variables: variablesApi,
  models: modelsApi,
  budgets: budgetsApi,
  connectors: connectorsApi,
  lanes: lanesApi,
  audit: auditApi,
  account: accountApi,
  system: systemApi,
  overview: overviewApi,
  teams: teamsApi,
  members: membersApi,
  invitations: invitationsApi,
  instance: instanceApi,
};

type AnyArea = ImplementedArea<Record<string, OperationSpec>>;
const entries = Object.entries(areas) as [string, AnyArea][];

type RoutersOf<T extends Record<string, AnyArea>> = {
  [K in keyof T]: ReturnType<typeof trpcRouterOf<T[K]["specs"]>>;
};

/** The declared operations by area, for the test that both surfaces serve each. */
export const operationTable = Object.fromEntries(
  entries.map(([area, { specs }]) => [area, specs]),
) as { [K in keyof typeof areas]: (typeof areas)[K]["specs"] };

/** One tRPC router per area, for the app router. */
export const areaRouters = Object.fromEntries(
  entries.map(([area, implemented]) => [area, trpcRouterOf(implemented)]),
) as unknown as RoutersOf<typeof areas>;

/** Every area's REST routes, for the dispatcher. */
export const areaRoutes: Route[] = entries.flatMap(([, implemented]) => restRoutesOf(implemented));
