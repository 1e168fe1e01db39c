/**
 * The app's tRPC router.
 */
import { createCallerFactory, router } from "./init";
import { accountRouter } from "./routers/account";
import { auditRouter } from "./routers/audit";
import { instanceRouter } from "./routers/instance";
import { invitationsRouter } from "./routers/invitations";
import { membersRouter } from "./routers/members";
import { teamsRouter } from "./routers/teams";
import { connectorsRouter } from "./routers/connectors";
import { lanesRouter } from "./routers/lanes";
import { modelsRouter } from "./routers/models";
import { overviewRouter } from "./routers/overview";
import { notificationsRouter } from "./routers/notifications";
import { runsRouter } from "./routers/runs";
import { triggersRouter } from "./routers/triggers";
import { systemRouter } from "./routers/system";
import { tokensRouter } from "./routers/tokens";
import { variablesRouter } from "./routers/variables";
import { workflowsRouter } from "./routers/workflows";

export const appRouter = router({
  account: accountRouter,
  workflows: workflowsRouter,
  runs: runsRouter,
  system: systemRouter,
  tokens: tokensRouter,
  variables: variablesRouter,
  models: modelsRouter,
  connectors: connectorsRouter,
  lanes: lanesRouter,
  audit: auditRouter,
  triggers: triggersRouter,
  notifications: notificationsRouter,
  overview: overviewRouter,
  teams: teamsRouter,
  members: membersRouter,
  invitations: invitationsRouter,
  instance: instanceRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
