/**
 * What the worker tells when a wait for a person opens: a signed `wait.opened` delivery to
 * each of the team's endpoints that listens to it (delivered, retried and recorded as run
 * notifications are), and, where the server has SMTP, a mail to each member who may answer,
 * with the link to the run's page where the answer is given. A mail that cannot be sent is
 * logged; the wait stands either way.
 */
import nodemailer from "nodemailer";
import { enqueueWaitNotifications, waitAnswerersOf, type Db } from "@switchyard/db";
import type { Logger } from "../logger";

/** The notification queue, as far as enqueuing needs it (a BullMQ `Queue<NotificationJob>`). */
type Enqueuer = Parameters<typeof enqueueWaitNotifications>[1];

export type WaitMail = { smtpUrl: string; from: string };

export type AnnounceWaitDeps = {
  db: Db;
  queue: Enqueuer;
  /** the dashboard's address (AUTH_URL), for the run's link */
  baseUrl: string;
  /** mail to those who may answer; none without SWITCHYARD_SMTP_URL */
  mail?: WaitMail;
  log: Logger;
};

export const announceWaitOpened = async (
  deps: AnnounceWaitDeps,
  input: { teamId: string; runId: string; waitId: string },
) => {
  const deliveries = await enqueueWaitNotifications(deps.db, deps.queue, input);
  if (!deps.mail) return { deliveries, mailed: [] as string[] };
  const found = await waitAnswerersOf(deps.db, input.teamId, input.waitId);
  if (!found || found.answerers.length === 0) return { deliveries, mailed: [] as string[] };
  const link = `${deps.baseUrl.replace(/\/$/, "")}/runs/${input.runId}`;
  const transport = nodemailer.createTransport(deps.mail.smtpUrl);
  const mailed: string[] = [];
  try {
    for (const person of found.answerers) {
      try {
        await transport.sendMail({
          from: deps.mail.from,
          to: person.email,
          subject: `Waiting for your answer: ${found.wait.question}`.slice(0, 200),
          text: `Hello ${person.name},\n\nA run of ${found.workflow} waits for a person's answer:\n\n  ${found.wait.question}\n\n${found.wait.kind === "input" ? "Fill in the inputs it asks for" : "Approve or deny it"} on the run's page:\n\n${link}\n\nYou get this mail because you may answer it.\n`,
        });
        mailed.push(person.email);
      } catch (e) {
        deps.log.warn("could not mail a wait to one who may answer it", {
          waitId: input.waitId,
          error: (e as Error).message,
        });
      }
    }
  } finally {
    transport.close();
  }
  return { deliveries, mailed };
};
