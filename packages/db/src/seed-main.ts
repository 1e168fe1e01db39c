/**
 * `npm run db:seed`: seeds the database named by DATABASE_URL and prints the demo login.
 */
import { createDb } from "./client";
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
  const { team, admin, workflows } = await seed(db, {
    adminEmail: required("SEED_ADMIN_EMAIL"),
    adminPassword: required("SEED_ADMIN_PASSWORD"),
  });
  console.log(`seed: team "${team.slug}", admin ${admin.email}, ${workflows.length} workflows`);
} finally {
  await db.$disconnect();
}
