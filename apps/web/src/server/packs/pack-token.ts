/**
 * The GitHub token a release install names for a private repository: a team secret variable,
 * opened for the download only and never stored. Whoever installs must be allowed to start
 * runs in a lane the secret is open to, so the token serves no one a workflow of the team
 * could not already hand it to.
 */
import { openVariable, type Keyring } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import { mayStart, mayUseSecret, type Role } from "@switchyard/core/policy";
import { laneRules, secretRules, variablesForRun, type Db } from "@switchyard/db";

const where = { location: { path: "tokenSecret" } };

export const packToken = async (
  db: Db,
  keyring: Keyring,
  caller: { teamId: string; role: Role },
  name: string,
) => {
  const secret = (await secretRules(db, caller.teamId)).get(name);
  if (!secret)
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `tokenSecret: "${name}" is not a secret variable of the team: store the GitHub token as a secret (Settings → Variables) and name it here`,
      where,
    );
  const lanes = await laneRules(db, caller.teamId);
  const lane = [...lanes.keys()].find(
    (l) => !mayUseSecret(secret, l) && !mayStart(lanes, caller.role, l),
  );
  if (lane === undefined)
    throw new AppError(
      "FORBIDDEN",
      `tokenSecret: secret "${name}" is open only to lanes where your role (${caller.role}) may not start runs`,
      where,
    );
  const [stored] = await variablesForRun(db, caller.teamId, [name], lane);
  if (!stored || !("sealed" in stored))
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `tokenSecret: "${name}" has no value`,
      where,
    );
  return openVariable(
    keyring,
    { teamId: caller.teamId, credentialId: stored.sealed.credentialId, name },
    stored.sealed.envelope,
  );
};
