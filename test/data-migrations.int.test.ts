/**
 * What the account migrations do to rows that existed before them, on a database migrated
 * up to each and filled with old rows: API tokens bound to the membership they were made
 * under (a token older than its owner's membership, or whose owner left, is revoked).
 */
import { afterEach, describe, expect, it } from "vitest";
import { databaseBefore, type DatabaseBefore } from "./helpers/database-before";

let database: DatabaseBefore | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

const at = (iso: string) => iso.replace("T", " ").replace("Z", "");

describe("20261202010000_token_membership", () => {
  it("binds each live token to the membership it was made under and revokes the others as member_removed", async () => {
    database = await databaseBefore("20261202010000_token_membership");
    const q = database.query;
    await q(`INSERT INTO "Team" (id, slug, name) VALUES ('team', 'team', 'Team')`);
    await q(`INSERT INTO "User" (id, email, name) VALUES ('stays', 'stays@x', 'Stays'), ('left', 'left@x', 'Left'), ('back', 'back@x', 'Back')`);
    await q(`INSERT INTO "Membership" (id, "teamId", "userId", role, "createdAt") VALUES
      ('m-stays', 'team', 'stays', 'member', $1), ('m-back', 'team', 'back', 'admin', $2)`, [at("2026-01-01T00:00:00Z"), at("2026-06-01T00:00:00Z")]);
    const token = (id: string, userId: string, createdAt: string, revoked = false) =>
      q(`INSERT INTO "ApiToken" (id, "teamId", "userId", name, prefix, "tokenHash", scopes, "createdAt", "revokedAt") VALUES ($1, 'team', $2, $1, 'p', $1, '{api}', $3, $4)`, [
        id,
        userId,
        at(createdAt),
        revoked ? at("2026-02-01T00:00:00Z") : null,
      ]);
    await token("t-stays", "stays", "2026-03-01T00:00:00Z");
    await token("t-stays-revoked", "stays", "2026-03-01T00:00:00Z", true);
    await token("t-left", "left", "2026-03-01T00:00:00Z");
    // Made before the person was removed and invited back (their membership began in June).
    await token("t-back-old", "back", "2026-03-01T00:00:00Z");
    await token("t-back-new", "back", "2026-07-01T00:00:00Z");

    await database.migrate();
    const rows = await q<{ id: string; membershipId: string | null; revoked: boolean; revokedReason: string | null }>(
      `SELECT id, "membershipId", "revokedAt" IS NOT NULL AS revoked, "revokedReason" FROM "ApiToken" ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: "t-back-new", membershipId: "m-back", revoked: false, revokedReason: null },
      { id: "t-back-old", membershipId: null, revoked: true, revokedReason: "member_removed" },
      { id: "t-left", membershipId: null, revoked: true, revokedReason: "member_removed" },
      { id: "t-stays", membershipId: "m-stays", revoked: false, revokedReason: null },
      { id: "t-stays-revoked", membershipId: "m-stays", revoked: true, revokedReason: "revoked" },
    ]);
  });
});
