/**
 * A real SMTP server on loopback that keeps every mail it is given (its recipients and raw
 * text), for tests of what the worker mails.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type SmtpInbox = {
  /** smtp://127.0.0.1:<port>, for SWITCHYARD_SMTP_URL */
  url: string;
  mails: { to: string; body: string }[];
  close: () => Promise<void>;
};

/** `mails`: where to keep them (a new list unless given). */
export const openSmtpInbox = async (mails: SmtpInbox["mails"] = []): Promise<SmtpInbox> => {
  const server = new SMTPServer({
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
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
