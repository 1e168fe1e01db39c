/**
 * `npm run db:seed`: seeds the database named by DATABASE_URL and prints the demo login:
 * whether the admin was made now, and whether SEED_ADMIN_PASSWORD still signs it in (the
 * seed never resets a password changed since; `npm start` prints the password only then).
 */
import { createDb } from "./client";
import { verifyPasswordHash } from "./password-hash";
import { seed } from "./seed";

const required = (name: string) => {
  const value = process.env[name];
  if (!value) {
    console.error(`seed: ${name} is not set`);
    process.exit(1);
  }
  return value;
};

const db = createDb(required("DATABASE_URL"), { max: 2 });
try {
  const password = required("SEED_ADMIN_PASSWORD");
  const { team, admin, adminCreated, workflows } = await seed(db, {
    adminEmail: required("SEED_ADMIN_EMAIL"),
    adminPassword: password,
  });
  console.log(
    `seed: team "${team.slug}", admin ${admin.email} (${adminCreated ? "made now, an instance admin" : "kept as it was"}), ${workflows.length} workflows`,
  );
  const current =
    admin.passwordHash !== null && (await verifyPasswordHash(password, admin.passwordHash));
  console.log(
    current
      ? "seed: the admin's password is SEED_ADMIN_PASSWORD"
      : "seed: the admin's password was changed since; SEED_ADMIN_PASSWORD no longer signs in",
  );
} finally {
  await db.$disconnect();
}
