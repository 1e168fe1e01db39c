/**
 * How the connector host reaches a connector, and where its credential goes: a stdio
 * server gets it in its environment at spawn (started by `openStdio`, the worker's own
 * sandbox, when given), a streamable HTTP one as a bearer resolved at every request, so a
 * refreshed token is used at once. An http connector is reached only through the egress
 * fetch the host was given (docs/connectors.md, "Egress"), never the global fetch.
 */
import { StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { AppError } from "../errors";
import type { ConnectorSpec, CredentialSource } from "./connector-host";
import type { FetchLike } from "./oauth/oauth-types";

/** Starts a stdio connector with its environment; the transport speaks over its pipes. */
export type OpenStdio = (
  spec: Extract<ConnectorSpec, { kind: "stdio" }>,
  env: Record<string, string>,
) => Promise<Transport>;

export const openTransport = async (
  spec: ConnectorSpec,
  {
    credentials,
    openStdio,
    httpFetch,
  }: { credentials?: CredentialSource; openStdio?: OpenStdio; httpFetch?: FetchLike },
): Promise<Transport> => {
  switch (spec.kind) {
    case "stdio": {
      const env = { ...(spec.env ?? {}) };
      if (spec.credentialEnv && credentials) {
        const secret = await credentials.resolve(spec.id);
        if (secret !== undefined) env[spec.credentialEnv] = secret;
      }
      if (openStdio) return openStdio(spec, env);
      return new StdioClientTransport({
        command: spec.command,
        args: spec.args ?? [],
        env,
        stderr: "ignore",
        ...(spec.cwd ? { cwd: spec.cwd } : {}),
      });
    }
    case "http": {
      const url = new URL(spec.url);
      if (!httpFetch)
        throw new AppError(
          "SYSTEM.CONFIG",
          `connector "${spec.id}": this connector host was given no egress fetch, so it reaches no http connector`,
        );
      return new StreamableHTTPClientTransport(url, {
        fetch: async (url, init) => {
          const send = (secret: string | undefined) => {
            const headers = new Headers(init?.headers);
            for (const [k, v] of Object.entries(spec.headers ?? {})) headers.set(k, v);
            if (secret !== undefined) headers.set("Authorization", `Bearer ${secret}`);
            return httpFetch(url, { ...init, headers });
          };
          const secret = credentials ? await credentials.resolve(spec.id) : undefined;
          const res = await send(secret);
          // A credential refused before its time (revoked or rotated at the server): renewed once, then sent again.
          if (res.status !== 401 || secret === undefined || !credentials?.rejected) return res;
          await credentials.rejected(spec.id, secret);
          const renewed = await credentials.resolve(spec.id);
          if (renewed === undefined || renewed === secret) return res;
          await res.body?.cancel();
          return send(renewed);
        },
      });
    }
  }
};
