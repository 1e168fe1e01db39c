/**
 * Seeds a demo team, its admin, lanes and demo workflows. Idempotent: safe on every start.
 * Given the built-in demo model's URL, also what the demo agent workflow needs: the demo
 * model allowed for openai_compatible steps (only while the team has set nothing for them),
 * the demo connector, and the workflow itself.
 * The admin is made once, with the seed's password, as the installation's first instance
 * admin; on later starts the account is left as it is (a password changed since stays
 * changed), except that an installation without any instance admin (one from before
 * instance admins) gets this account as its first.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Db } from "./client";
import { hashPassword } from "./repositories/members";
import { saveWorkflowVersion } from "./repositories/bundle-store";
import { ensureBuiltInLanes } from "./repositories/teams";
import { seedDemoAgent } from "./seed-demo-agent";

type SeedOptions = {
  adminEmail: string;
  adminPassword: string;
  /** The built-in demo model's base URL (`http://127.0.0.1:<port>/v1`); none: no demo agent. */
  demoModelUrl?: string | undefined;
};

const WORKFLOW_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "seed-workflows",
);

export const seed = async (db: Db, options: SeedOptions) => {
  const team = await db.team.upsert({
    where: { slug: "demo" },
    create: { slug: "demo", name: "Demo team" },
    update: {},
  });
  const email = options.adminEmail.toLowerCase();
  const existing = await db.user.findUnique({ where: { email } });
  const admin =
    existing ??
    (await db.user.create({
      data: {
        email,
        name: "Demo admin",
        passwordHash: await hashPassword(options.adminPassword),
        emailVerifiedAt: new Date(),
        instanceAdmin: true,
      },
    }));
  if (
    existing &&
    !existing.instanceAdmin &&
    (await db.user.count({ where: { instanceAdmin: true } })) === 0
  ) {
    await db.user.update({ where: { id: existing.id }, data: { instanceAdmin: true } });
  }
  await db.membership.upsert({
    where: { teamId_userId: { teamId: team.id, userId: admin.id } },
    create: { teamId: team.id, userId: admin.id, role: "owner" },
    update: {},
  });
  await ensureBuiltInLanes(db, team.id);
  const workflows = [];
  for (const file of readdirSync(WORKFLOW_DIR)
    .filter((f) => f.endsWith(".yaml"))
    .sort()) {
    const yaml = readFileSync(path.join(WORKFLOW_DIR, file), "utf8");
    const name = file.replace(/\.yaml$/, "");
    const description = /^description:\s*(.+)$/m.exec(yaml)?.[1] ?? "";
    workflows.push(
      await saveWorkflowVersion(db, {
        teamId: team.id,
        name,
        description,
        lane: "default",
        files: { "workflow.yaml": yaml },
        createdById: admin.id,
      }),
    );
  }
  if (options.demoModelUrl)
    workflows.push(
      await seedDemoAgent(db, {
        teamId: team.id,
        adminId: admin.id,
        modelUrl: options.demoModelUrl,
      }),
    );
  return { team, admin, adminCreated: existing === null, workflows };
};
