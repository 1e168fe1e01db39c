/**
 * Settings → Instance: the installation's settings and its own audit entries, for its
 * admins only (others get a 404 and never see the entry in the navigation).
 */
import { notFound } from "next/navigation";
import { auth } from "~/server/auth/auth";
import { instanceAdminOf } from "~/server/instance/instance-admin";
import { db } from "~/server/services";
import { AuditLog } from "../audit/audit-log";
import { InstanceAdmins } from "./instance-admins";
import { InstanceForm } from "./instance-form";
import { InstancePeople } from "./instance-people";
import "../connectors/settings-pages.css";

export default async function InstancePage() {
  const session = await auth();
  if (!session?.user.id || !(await instanceAdminOf(db(), session.user.id))) notFound();
  return (
    <>
      <h1>Instance</h1>
      <p className="muted">
        Settings of this whole installation, for its admins: who may create teams, whether people
        may make an account without an invitation, whether passwords are refused in favour of single
        sign-on, how long API tokens may live, and which commands team-authored stdio connectors may
        run. Every change is in the audit log below.
      </p>
      <InstanceForm />
      <h2>Instance admins</h2>
      <InstanceAdmins />
      <h2>People</h2>
      <p className="muted">
        Everyone with an account here. A password reset link goes to the person&apos;s own address
        when the server can mail; without SMTP it is shown to you once, and only instance admins get
        such links (team admins never do).
      </p>
      <InstancePeople selfId={session.user.id} />
      <h2>Audit log</h2>
      <p className="muted">
        Changes to the installation itself: its settings, password reset links its admins issue, and
        accounts claimed through single sign-on.
      </p>
      <AuditLog scope="instance" />
    </>
  );
}
