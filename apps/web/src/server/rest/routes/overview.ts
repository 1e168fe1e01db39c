/**
 * GET /overview: the dashboard's overview for scripts, with the same contract.
 */
import { overviewQuery, overviewResponse } from "../../contract/overview.types";
import { getOverview } from "../../overview/get-overview";
import { answer, parse, routeFinder, type Route } from "../route-kit";

export const overviewRoutes: Route[] = [
  {
    method: "GET",
    path: "/overview",
    summary:
      "The team's runs by status and day, success rate, p50/p95 step duration, tokens and cost per day and per workflow, and the most called tools and connectors, over the last 7, 30 or 90 days in a time zone",
    query: overviewQuery,
    status: 200,
    description: "The overview",
    response: overviewResponse,
    handler: async ({ deps, caller, query }) => {
      const { days, tz } = await parse(overviewQuery, () => Promise.resolve(Object.fromEntries(query)));
      return answer(routeOf("GET", "/overview"), await getOverview(deps.db, caller, { days: days as 7 | 30 | 90, timeZone: tz }));
    },
  },
];

const routeOf = routeFinder(overviewRoutes);
