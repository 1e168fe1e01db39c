/**
 * The team overview for any member (viewers included): what the team's runs did over the
 * chosen range, by the viewer's local day.
 */
import type { z } from "zod";
import { teamOverview, type Db } from "@switchyard/db";
import type { overviewInput } from "../contract/overview.types";

export const getOverview = (
  db: Db,
  actor: { teamId: string },
  input: z.output<typeof overviewInput>,
) => teamOverview(db, { teamId: actor.teamId, days: input.days, timeZone: input.timeZone });
