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
    await q(
      `INSERT INTO "User" (id, email, name) VALUES ('stays', 'stays@x', 'Stays'), ('left', 'left@x', 'Left'), ('back', 'back@x', 'Back')`,
    );
    await q(
      `INSERT INTO "Membership" (id, "teamId", "userId", role, "createdAt") VALUES
      ('m-stays', 'team', 'stays', 'member', $1), ('m-back', 'team', 'back', 'admin', $2)`,
      [at("2026-01-01T00:00:00Z"), at("2026-06-01T00:00:00Z")],
    );
    const token = (id: string, userId: string, createdAt: string, revoked = false) =>
      q(
        `INSERT INTO "ApiToken" (id, "teamId", "userId", name, prefix, "tokenHash", scopes, "createdAt", "revokedAt") VALUES ($1, 'team', $2, $1, 'p', $1, '{api}', $3, $4)`,
        [id, userId, at(createdAt), revoked ? at("2026-02-01T00:00:00Z") : null],
      );
    await token("t-stays", "stays", "2026-03-01T00:00:00Z");
    await token("t-stays-revoked", "stays", "2026-03-01T00:00:00Z", true);
    await token("t-left", "left", "2026-03-01T00:00:00Z");
    // Made before the person was removed and invited back (their membership began in June).
    await token("t-back-old", "back", "2026-03-01T00:00:00Z");
    await token("t-back-new", "back", "2026-07-01T00:00:00Z");

    await database.migrate();
    const rows = await q<{
      id: string;
      membershipId: string | null;
      revoked: boolean;
      revokedReason: string | null;
    }>(
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

describe("20261202020000_email_verified", () => {
  it("takes accounts as verified except those an unbound invitation's sign-up or a password-less issuer sign-in made", async () => {
    database = await databaseBefore("20261202020000_email_verified");
    const q = database.query;
    const made = at("2026-03-01T10:00:00Z");
    await q(`INSERT INTO "Team" (id, slug, name) VALUES ('team', 'team', 'Team')`);
    await q(
      `INSERT INTO "User" (id, email, name, "passwordHash", "createdAt") VALUES
        ('seeded', 'seeded@x', 'S', 'hash', $1), ('bound', 'bound@x', 'B', 'hash', $1), ('unbound', 'unbound@x', 'U', 'hash', $1),
        ('joined-later', 'later@x', 'L', 'hash', $1), ('sso', 'sso@x', 'O', NULL, $1)`,
      [made],
    );
    const invitation = (id: string, email: string | null, userId: string, acceptedAt: string) =>
      q(
        `INSERT INTO "Invitation" (id, "teamId", role, email, "tokenHash", "expiresAt", "acceptedAt", "acceptedById") VALUES ($1, 'team', 'member', $2, $1, $4, $4, $3)`,
        [id, email, userId, at(acceptedAt)],
      );
    await invitation("i-bound", "bound@x", "bound", "2026-03-01T10:00:00.050Z");
    await invitation("i-unbound", null, "unbound", "2026-03-01T10:00:00.050Z");
    // An unbound invitation accepted by an account made long before: not its sign-up.
    await invitation("i-later", null, "joined-later", "2026-04-01T10:00:00Z");
    await q(
      `INSERT INTO "UserIdentity" (id, "userId", issuer, subject) VALUES ('ui', 'sso', 'https://idp', 's')`,
    );

    await database.migrate();
    const rows = await q<{ id: string; verified: boolean }>(
      `SELECT id, "emailVerifiedAt" IS NOT NULL AS verified FROM "User" ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: "bound", verified: true },
      { id: "joined-later", verified: true },
      { id: "seeded", verified: true },
      { id: "sso", verified: false },
      { id: "unbound", verified: false },
    ]);
  });
});

describe("20261202040000_password_resets", () => {
  it("opens each user's token window at their first reset link, and ends the links still pending", async () => {
    database = await databaseBefore("20261202040000_password_resets");
    const q = database.query;
    await q(`INSERT INTO "Team" (id, slug, name) VALUES ('team', 'team', 'Team')`);
    await q(
      `INSERT INTO "User" (id, email, name) VALUES ('reset', 'reset@x', 'R'), ('never', 'never@x', 'N')`,
    );
    const link = (id: string, createdAt: string, expiresAt: string, used: boolean) =>
      q(
        `INSERT INTO "PasswordReset" (id, "teamId", "userId", "tokenHash", "expiresAt", "usedAt", "createdAt") VALUES ($1, 'team', 'reset', $1, $2, $3, $4)`,
        [id, at(expiresAt), used ? at(createdAt) : null, at(createdAt)],
      );
    await link("first", "2026-01-01T00:00:00Z", "2026-01-01T01:00:00Z", true);
    await link("pending", "2026-11-30T00:00:00Z", "2999-01-01T00:00:00Z", false);

    await database.migrate();
    const users = await q<{ id: string; resetSince: Date | null }>(
      `SELECT id, "resetSince" AT TIME ZONE 'UTC' AS "resetSince" FROM "User" ORDER BY id`,
    );
    expect(users.map((u) => [u.id, u.resetSince?.toISOString() ?? null])).toEqual([
      ["never", null],
      ["reset", "2026-01-01T00:00:00.000Z"],
    ]);
    const [pending] = await q<{ usable: boolean; teamId: string | null }>(
      `SELECT "expiresAt" > (now() AT TIME ZONE 'UTC') AS usable, "teamId" FROM "PasswordReset" WHERE id = 'pending'`,
    );
    expect(pending).toEqual({ usable: false, teamId: "team" });
  });
});
