/** Whether two strings are equal, compared in constant time (secrets, signatures, states). */
import { timingSafeEqual } from "node:crypto";

export const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
