/**
 * A person's sign-in through an OpenID issuer, as far as enterprise (cross-app access)
 * connectors see it: the identity linked to the user, and the ID token kept by the very
 * function the web app's sign-in calls (keepSignInIdToken). Tests use it where the issuer is
 * a scenario's or a test's IdP rather than the installation's configured one; it also
 * answers over HTTP for a client in another process (POST { issuer, idToken }).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Keyring } from "@switchyard/core/crypto";
import type { Db } from "@switchyard/db";
import { keepSignInIdToken } from "~/server/auth/keep-id-token";

const subjectOf = (idToken: string) =>
  String(
    (
      JSON.parse(Buffer.from(idToken.split(".")[1] ?? "", "base64url").toString()) as {
        sub: unknown;
      }
    ).sub,
  );

/** Links `userId` to the token's issuer and subject, and keeps the token as a sign-in does. */
export const signInThroughIssuer = async (
  services: { db: Db; keyring: Keyring },
  userId: string,
  signIn: { issuer: string; idToken: string },
) => {
  const subject = subjectOf(signIn.idToken);
  await services.db.userIdentity.upsert({
    where: { issuer_subject: { issuer: signIn.issuer, subject } },
    create: { userId, issuer: signIn.issuer, subject },
    update: {},
  });
  const kept = await keepSignInIdToken(services, { ...signIn, subject });
  if (!kept) throw new Error("the ID token was not kept");
};

/** The same over HTTP on 127.0.0.1, for `userId`; its URL, and how to stop it. */
export const startSignInStandIn = async (
  services: { db: Db; keyring: Keyring },
  userId: string,
) => {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const input = JSON.parse(body) as { issuer: string; idToken: string };
      signInThroughIssuer(services, userId, input).then(
        () => res.writeHead(204).end(),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
