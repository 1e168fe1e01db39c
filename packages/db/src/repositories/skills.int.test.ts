/**
 * The skills library against a real database: versions numbered from 1, an unchanged text
 * making none, each save and delete audited, pinned copies recognised by hash, and one team
 * never reading, resolving or deleting another team's skill.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { createDb, type Db } from "../index";
import {
  currentSkillTexts,
  deleteSkill,
  getSkill,
  listSkills,
  pinnedSkillVersions,
  saveSkillVersion,
} from "./skills";

let database: TestDatabase;
let db: Db;
let teamA: string;
let teamB: string;
let user: string;

const text = (body: string) => `---\nname: go-style\ndescription: Go style\n---\n${body}\n`;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 2 });
  user = (await db.user.create({ data: { email: "s@test.local", name: "S" } })).id;
  teamA = (await db.team.create({ data: { name: "A", slug: "a" } })).id;
  teamB = (await db.team.create({ data: { name: "B", slug: "b" } })).id;
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

const save = (teamId: string, body: string) =>
  saveSkillVersion(db, {
    teamId,
    name: "go-style",
    description: "Go style",
    content: text(body),
    actorUserId: user,
  });

it("numbers versions, makes none for unchanged text and reads any version back", async () => {
  expect((await save(teamA, "one")).version.number).toBe(1);
  const same = await save(teamA, "one");
  expect([same.created, same.version.number]).toEqual([false, 1]);
  expect((await save(teamA, "two")).version.number).toBe(2);
  const current = await getSkill(db, teamA, "go-style");
  expect(current?.shown.content).toBe(text("two"));
  expect(current?.versions.map((v) => v.number)).toEqual([2, 1]);
  expect((await getSkill(db, teamA, "go-style", 1))?.shown.content).toBe(text("one"));
  expect(await getSkill(db, teamA, "go-style", 7)).toBeUndefined();
  expect((await currentSkillTexts(db, teamA, ["go-style", "other"])).get("go-style")).toEqual({
    number: 2,
    content: text("two"),
  });
  const pinned = await pinnedSkillVersions(db, teamA, [
    { name: "go-style", path: ".switchyard/skills/go-style/SKILL.md", text: text("one") },
    { name: "go-style", path: "x/SKILL.md", text: "not a version" },
  ]);
  expect(pinned.map((p) => p.version)).toEqual([1, null]);
});

it("keeps teams apart: another team cannot list, read, resolve or delete the skill", async () => {
  expect(await listSkills(db, teamB)).toEqual([]);
  expect(await getSkill(db, teamB, "go-style")).toBeUndefined();
  expect((await currentSkillTexts(db, teamB, ["go-style"])).size).toBe(0);
  expect(
    (await pinnedSkillVersions(db, teamB, [{ name: "go-style", path: "p", text: text("one") }]))[0]
      ?.version,
  ).toBeNull();
  await expect(
    deleteSkill(db, { teamId: teamB, name: "go-style", actorUserId: user }),
  ).rejects.toMatchObject({ code: "NOT_FOUND" });
  // The same name in team B is its own skill, numbered from 1.
  expect((await save(teamB, "b")).version.number).toBe(1);
  expect((await getSkill(db, teamA, "go-style"))?.shown.content).toBe(text("two"));
});

it("deletes a skill with an audit entry for each save and the delete", async () => {
  await deleteSkill(db, { teamId: teamA, name: "go-style", actorUserId: user });
  expect(await listSkills(db, teamA)).toEqual([]);
  expect((await listSkills(db, teamB)).map((s) => s.name)).toEqual(["go-style"]);
  const audit = await db.auditLog.findMany({
    where: { teamId: teamA, action: { startsWith: "skill." } },
    orderBy: { createdAt: "asc" },
    select: { action: true },
  });
  expect(audit.map((a) => a.action)).toEqual(["skill.save", "skill.save", "skill.delete"]);
});
