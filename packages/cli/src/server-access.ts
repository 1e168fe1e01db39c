/**
 * Where the server commands find their server and token, and how they call it: from
 * SWITCHYARD_URL and SWITCHYARD_TOKEN when set (they win), else from the file `switchyard
 * login` wrote (mode 0600, in a 0700 folder of the user's config folder). An error answer
 * becomes an AppError with the server's code and a sentence that says what to do.
 */
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { AppError, type ErrorCode } from "@switchyard/core/errors";
import {
  apiBaseUrl,
  createSwitchyardClient,
  ok,
  SwitchyardApiError,
  type SwitchyardClient,
} from "@switchyard/client";

export type ServerAccess = { url: string; token: string };

/** $XDG_CONFIG_HOME/switchyard, or ~/.config/switchyard. */
export const configFolder = (env: NodeJS.ProcessEnv) =>
  path.join(
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : path.join(env.HOME || homedir(), ".config"),
    "switchyard",
  );

/** The file login writes: `{ url, token }`. */
export const credentialsFile = (env: NodeJS.ProcessEnv) =>
  path.join(configFolder(env), "credentials.json");

const NOT_LOGGED_IN =
  "not logged in to a Switchyard server: run `switchyard login <url>` with an API token (Settings → API tokens), or set SWITCHYARD_URL and SWITCHYARD_TOKEN";

/** The server and token to use, or a USER error that says how to give them. */
export const serverAccess = async (env: NodeJS.ProcessEnv): Promise<ServerAccess> => {
  const file = credentialsFile(env);
  const stored = await readFile(file, "utf8").then(
    (text) => {
      try {
        return JSON.parse(text) as Partial<ServerAccess>;
      } catch {
        throw new AppError(
          "UNAUTHORIZED",
          `${file} is not JSON: run \`switchyard login <url>\` again`,
        );
      }
    },
    (): Partial<ServerAccess> => ({}),
  );
  const url = env.SWITCHYARD_URL || stored.url;
  if (!url) throw new AppError("UNAUTHORIZED", NOT_LOGGED_IN);
  const server = normalizedUrl(url);
  if (env.SWITCHYARD_TOKEN) return { url: server, token: env.SWITCHYARD_TOKEN };
  // The stored token goes only to the server it was stored for: SWITCHYARD_URL naming
  // another one (a CI job's, a staging host, anyone's) gets no token it was not given.
  if (!stored.token || !stored.url) throw new AppError("UNAUTHORIZED", NOT_LOGGED_IN);
  if (normalizedUrl(stored.url) !== server)
    throw new AppError(
      "UNAUTHORIZED",
      `the stored login is for ${normalizedUrl(stored.url)}, not ${server} (SWITCHYARD_URL): set SWITCHYARD_TOKEN for that server, or run \`switchyard login ${server}\``,
    );
  return { url: server, token: stored.token };
};

/** `https://host/` → `https://host`; refuses what is not an http(s) URL. */
export const normalizedUrl = (url: string) => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError(
      "BAD_REQUEST",
      `"${url}" is not a URL: give the server's address, such as https://switchyard.example.com`,
      {
        location: { path: "url" },
      },
    );
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw new AppError("BAD_REQUEST", `"${url}" is not an http(s) URL`, {
      location: { path: "url" },
    });
  return apiBaseUrl(parsed.href).slice(0, -"/api/v1".length);
};

/** Writes the credentials 0600 in a 0700 folder, atomically (a temp file renamed over the old one). */
export const storeCredentials = async (env: NodeJS.ProcessEnv, access: ServerAccess) => {
  const folder = configFolder(env);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o700);
  const file = credentialsFile(env);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(access, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
  return file;
};

/** What to do about an error answer, added to the server's message. */
const adviceOf = (error: SwitchyardApiError) => {
  switch (error.status) {
    case 401:
      return "the server does not take this token (unknown, expired or revoked): make one under Settings → API tokens and run `switchyard login <url>` again, or fix SWITCHYARD_TOKEN";
    case 403:
      return "the token's role or lane may not do this: ask an admin of the team";
    default:
      return undefined;
  }
};

/** An AppError from an error answer: the server's code, message and where it was. */
export const appErrorOf = (error: SwitchyardApiError) => {
  const advice = adviceOf(error);
  return new AppError(
    error.code as ErrorCode,
    advice ? `${error.message}: ${advice}` : error.message,
    {
      location: error.location,
      details: error.details,
    },
  );
};

/** The data of an API call, or an AppError (a server not reached is a SYSTEM error naming it). */
export const call = async <D>(
  access: ServerAccess,
  answer: Promise<{ data?: D; error?: unknown; response: Response }>,
): Promise<D> => {
  try {
    return await ok(answer);
  } catch (error) {
    if (error instanceof SwitchyardApiError) throw appErrorOf(error);
    throw unreachable(access, error);
  }
};

export const unreachable = (access: ServerAccess, error: unknown) => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return new AppError(
    "SYSTEM.CONFIG",
    `could not reach the Switchyard server at ${access.url} (${cause?.code ?? cause?.message ?? (error as Error).message}): check the URL given to \`switchyard login\` or SWITCHYARD_URL`,
    { cause: error },
  );
};

/** A client of the server the environment or the stored login names. */
export const connect = async (env: NodeJS.ProcessEnv) => {
  const access = await serverAccess(env);
  return { access, client: createSwitchyardClient(access) };
};

export type Connected = { access: ServerAccess; client: SwitchyardClient };
