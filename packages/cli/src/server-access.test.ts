import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { serverAccess, storeCredentials } from "./server-access";

let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), "sy-access-"));
  env = { XDG_CONFIG_HOME: path.join(home, ".config") };
  await storeCredentials(env, { url: "https://prod.example.com", token: "sy_prod_token" });
});
afterEach(() => rm(home, { recursive: true, force: true }));

it("uses the stored login for its own server, also when SWITCHYARD_URL names that server", async () => {
  await expect(serverAccess(env)).resolves.toEqual({
    url: "https://prod.example.com",
    token: "sy_prod_token",
  });
  await expect(
    serverAccess({ ...env, SWITCHYARD_URL: "https://prod.example.com/" }),
  ).resolves.toEqual({ url: "https://prod.example.com", token: "sy_prod_token" });
});

it("never sends the stored token to another server named by SWITCHYARD_URL", async () => {
  const elsewhere = serverAccess({ ...env, SWITCHYARD_URL: "https://staging.example.com" });
  await expect(elsewhere).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  await expect(elsewhere).rejects.toThrow("the stored login is for https://prod.example.com");
  await expect(
    serverAccess({
      ...env,
      SWITCHYARD_URL: "https://staging.example.com",
      SWITCHYARD_TOKEN: "sy_staging_token",
    }),
  ).resolves.toEqual({ url: "https://staging.example.com", token: "sy_staging_token" });
});
