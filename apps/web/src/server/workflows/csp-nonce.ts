/**
 * The nonce of the page's Content-Security-Policy (set per request by src/proxy.ts), for
 * client code that injects its own <style> elements (the code editor) and must carry it.
 */
import { headers } from "next/headers";

export const cspNonce = async (): Promise<string | undefined> =>
  /'nonce-([^']+)'/.exec((await headers()).get("content-security-policy") ?? "")?.[1];
