/**
 * `npm run db:seed`: seeds the database named by DATABASE_URL and prints the demo login:
 * whether the admin was made now, and whether SEED_ADMIN_PASSWORD still signs it in (the
 * seed never resets a password changed since; `npm start` prints the password only then).
 * With SWITCHYARD_DEMO_MODEL_PORT set, the demo agent workflow is seeded against the demo model there.
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
  const demoPort = Number(process.env.SWITCHYARD_DEMO_MODEL_PORT || "0");
  const { team, admin, adminCreated, workflows } = await seed(db, {
    adminEmail: required("SEED_ADMIN_EMAIL"),
    adminPassword: password,
    // The worker serves the demo model there (apps/worker/src/demo-model.ts).
    ...(demoPort > 0 ? { demoModelUrl: `http://127.0.0.1:${demoPort}/v1` } : {}),
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
