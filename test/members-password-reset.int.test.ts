/**
 * Password reset links an admin issues: only the hash is stored; the link is shown to the
 * admin when the server has no SMTP server, or mailed through a real one (smtp-server on
 * loopback) when it has; it works once, within the hour, and ends the member's old
 * sessions. Admins reset members and viewers, owners anyone but themselves.
 */
import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword, type Db } from "@switchyard/db";
import { refreshSessionToken } from "~/server/auth/session-token";
import { issuePasswordReset, resetPassword } from "~/server/members/password-reset";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

let seeded: SeededDatabase;
let db: Db;
let adminId: string;
let memberId: string;
let smtp: SMTPServer;
let smtpPort: number;
const mails: { to: string; body: string }[] = [];
const admin = () => ({ teamId: seeded.teamId, userId: adminId, role: "admin" as const });

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
  adminId = await addMember(db, seeded.teamId, {
    email: "admin2@test.local",
    name: "Admin Two",
    role: "admin",
  });
  memberId = await addMember(db, seeded.teamId, {
    email: "member@test.local",
    name: "Member",
    role: "member",
    password: "old-password-1",
  });
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData: (stream, session, callback) => {
      let body = "";
      stream.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), body });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  await seeded?.close();
});

describe("password reset links", () => {
  it("shows the link once without SMTP, stores only its hash, sets the password once and ends old sessions", async () => {
    const session = await refreshSessionToken(db, { token: {}, user: { id: memberId } });
    const issued = await dashboardCaller({ db }, adminId).members.issuePasswordReset({
      userId: memberId,
    });
    expect(issued.mailedTo).toBeNull();
    const token = issued.path!.replace("/reset/", "");
    expect(issued.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(3_600_000);
    const row = await db.passwordReset.findFirstOrThrow({ where: { userId: memberId } });
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));

    await expect(resetPassword(db, { token, password: "short" })).rejects.toMatchObject({
      code: "USER.INPUT.VALIDATION_FAILED",
    });
    expect(await resetPassword(db, { token, password: "brand-new-password" })).toEqual({
      email: "member@test.local",
    });
    expect(await verifyPassword(db, "member@test.local", "brand-new-password")).toBeTruthy();
    expect(await verifyPassword(db, "member@test.local", "old-password-1")).toBeUndefined();
    expect(await refreshSessionToken(db, { token: session! })).toBeNull();
    await expect(
      resetPassword(db, { token, password: "another-password-2" }),
    ).rejects.toMatchObject({ code: "USER.LINK.UNUSABLE", userMessage: /already used/ });
  });

  it("refuses an expired link", async () => {
    const issued = await issuePasswordReset({ db }, admin(), { userId: memberId });
    await db.passwordReset.updateMany({
      where: { userId: memberId, usedAt: null },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expect(
      resetPassword(db, {
        token: issued.path!.replace("/reset/", ""),
        password: "brand-new-password",
      }),
    ).rejects.toMatchObject({ userMessage: /expired/ });
  });

  it("mails the link through the SMTP server when there is one, and shows it to nobody", async () => {
    const issued = await issuePasswordReset(
      {
        db,
        mail: { smtpUrl: `smtp://127.0.0.1:${smtpPort}`, from: "Switchyard <sy@test.local>" },
        baseUrl: "https://sy.example.com",
      },
      admin(),
      { userId: memberId },
    );
    expect(issued).toMatchObject({ mailedTo: "member@test.local", path: null });
    const mail = mails.at(-1)!;
    expect(mail.to).toBe("member@test.local");
    const link = /https:\/\/sy\.example\.com\/reset\/(pwr_[A-Za-z0-9_-]{43})/.exec(
      mail.body.replace(/=\r?\n/g, ""),
    );
    expect(link).not.toBeNull();
    expect(await resetPassword(db, { token: link![1]!, password: "mailed-password-3" })).toEqual({
      email: "member@test.local",
    });
  });

  it("lets admins reset members and viewers only, owners anyone but themselves", async () => {
    const otherAdmin = await addMember(db, seeded.teamId, {
      email: "admin3@test.local",
      name: "Admin Three",
      role: "admin",
    });
    await expect(
      dashboardCaller({ db }, adminId).members.issuePasswordReset({ userId: otherAdmin }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      dashboardCaller({ db }, adminId).members.issuePasswordReset({ userId: seeded.adminId }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      dashboardCaller({ db }, memberId).members.issuePasswordReset({ userId: adminId }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      dashboardCaller({ db }, seeded.adminId).members.issuePasswordReset({
        userId: seeded.adminId,
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(
      (
        await dashboardCaller({ db }, seeded.adminId).members.issuePasswordReset({
          userId: otherAdmin,
        })
      ).path,
    ).toMatch(/^\/reset\/pwr_/);
  });
});
