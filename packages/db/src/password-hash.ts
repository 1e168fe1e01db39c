/**
 * Password hashes: scrypt through Node's async API, so hashing runs on the libuv thread
 * pool and never blocks the event loop. A hash records its own cost
 * (`scrypt$<log2 N>$<r>$<p>$<salt>$<key>`), so raising the cost later, like replacing the
 * bcrypt hashes of earlier versions, happens on each user's next successful sign-in.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import bcrypt from "bcryptjs";

type ScryptCost = { logN: number; r: number; p: number };

/** 64 MiB and two passes: one of the cost settings OWASP lists for scrypt. */
const PASSWORD_COST: ScryptCost = { logN: 16, r: 8, p: 2 };

/**
 * A hash of a random password nobody holds, at PASSWORD_COST: checking a sign-in for an
 * unknown email against it costs what checking a wrong password costs.
 */
export const DUMMY_PASSWORD_HASH =
  "scrypt$16$8$2$XWXbD4761aGpQiE_z1w7Dw$1CZidHwvvsRmTujHEg1CtSphexbIJy7LbHld4_FKD_k";

const KEY_BYTES = 32;

const derive = (password: string, salt: Buffer, cost: ScryptCost) => {
  const N = 2 ** cost.logN;
  const options: ScryptOptions = {
    N,
    r: cost.r,
    p: cost.p,
    maxmem: 256 * N * cost.r + 1024 * 1024,
  };
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
};

const parse = (stored: string) => {
  const match =
    /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{43})$/.exec(
      stored,
    );
  if (!match) return undefined;
  const cost = { logN: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (cost.logN < 1 || cost.logN > 20 || cost.r < 1 || cost.p < 1) return undefined;
  return {
    cost,
    salt: Buffer.from(match[4]!, "base64url"),
    key: Buffer.from(match[5]!, "base64url"),
  };
};

/** The scrypt hash of `password`, with its salt and cost, as one text. */
export const hashPassword = async (password: string, cost: ScryptCost = PASSWORD_COST) => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return `scrypt$${cost.logN}$${cost.r}$${cost.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
};

/** Whether `password` matches `stored`: a scrypt hash of any cost, or a bcrypt hash of an earlier version. */
export const verifyPasswordHash = async (password: string, stored: string): Promise<boolean> => {
  if (/^\$2[aby]\$\d\d\$/.test(stored)) return bcrypt.compare(password, stored);
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.cost);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
};

/** True for a hash that is not scrypt at the current cost: it is replaced on the next successful sign-in. */
export const needsRehash = (stored: string) => {
  const cost = parse(stored)?.cost;
  return (
    !cost ||
    cost.logN !== PASSWORD_COST.logN ||
    cost.r !== PASSWORD_COST.r ||
    cost.p !== PASSWORD_COST.p
  );
};
