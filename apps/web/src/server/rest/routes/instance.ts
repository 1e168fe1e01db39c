/**
 * The installation's settings over REST, with the dashboard's contract: an instance admin's
 * token reads them; changing them needs one that acts as admin or owner (a token made
 * read-only never changes the installation). Each change is audited without a team, naming
 * the token it came with.
 */
import { AppError } from "@switchyard/core/errors";
import { roleAtLeast } from "@switchyard/core/policy";
import { instanceSettings as instanceSettingsShape, updateInstanceInput } from "../../contract/instance.types";
import { requireInstanceAdmin } from "../../instance/instance-admin";
import { instanceSettings, updateInstance } from "../../instance/instance-operations";
import { answer, parse, routeFinder, type Caller, type Route } from "../route-kit";

const actorOf = (caller: Caller) => ({ userId: caller.userId, tokenId: caller.tokenId });

export const instanceRoutes: Route[] = [
  {
    method: "GET",
    path: "/instance",
    summary: "Instance admins: the installation's settings (who may create teams, sign-up without an invitation, SSO only, the longest token lifetime, any connector command)",
    status: 200,
    description: "The installation's settings",
    response: instanceSettingsShape,
    errors: { 403: "The token's member is not an instance admin" },
    handler: async ({ deps, caller }) => answer(routeOf("GET", "/instance"), await instanceSettings(deps.db, actorOf(caller))),
  },
  {
    method: "PUT",
    path: "/instance",
    summary:
      "Instance admins, with a token acting as admin or owner: change the installation's settings; fields left out keep their value. SSO only is refused while no issuer is configured, or before you have signed in through it",
    body: updateInstanceInput,
    status: 200,
    description: "The installation's settings as stored",
    response: instanceSettingsShape,
    errors: {
      400: "Bad input, or SSO only while no issuer is configured or before you signed in through it (USER.INSTANCE.SSO_NOT_CONFIGURED at ssoOnly)",
      403: "The token's member is not an instance admin, or the token acts below admin",
    },
    handler: async ({ deps, caller, body }) => {
      await requireInstanceAdmin(deps.db, caller.userId);
      if (!roleAtLeast(caller.role, "admin")) throw new AppError("FORBIDDEN", "changing the installation's settings needs a token that acts as admin or owner");
      return answer(routeOf("PUT", "/instance"), await updateInstance(deps.db, actorOf(caller), await parse(updateInstanceInput, body)));
    },
  },
];

const routeOf = routeFinder(instanceRoutes);
