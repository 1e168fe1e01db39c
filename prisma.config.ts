/**
 * Prisma CLI configuration: the JavaScript schema engine over the pg driver adapter, so
 * every migrate command runs offline (Prisma's native engines are never downloaded).
 */
import path from "node:path";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

// Workaround for prisma/prisma#27403: the WASM schema engine reads catalog columns of type
// `name` (oid 19) and `"char"` (oid 18), which the pg adapter cannot map. Presenting those
// two oids as text (25) lets introspection and migrate work. Remove when the bug is fixed.
const NAME_OID = 19;
const CHAR_OID = 18;
const TEXT_OID = 25;
type AddFields = (fieldDescriptions: { dataTypeID: number }[]) => void;
const resultProto = (pg as unknown as { Result: { prototype: { addFields: AddFields } } }).Result
  .prototype;
const originalAddFields = resultProto.addFields;
resultProto.addFields = function (this: unknown, fieldDescriptions) {
  for (const field of fieldDescriptions) {
    if (field.dataTypeID === NAME_OID || field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
  }
  originalAddFields.call(this, fieldDescriptions);
};

const databaseUrl = () => {
  const raw = process.env.DATABASE_URL;
  if (!raw) throw new Error("DATABASE_URL is not set (run `npm run services up` or source .env)");
  const url = new URL(raw);
  // Discrete fields, not a connection string: with a string the shadow database of
  // `migrate dev` collapses onto the main one.
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.replace(/^\//, ""),
  };
};

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  adapter: async () => new PrismaPg(databaseUrl()),
});
