/**
 * The gateway's own answers (refusals, upstream failures) as one JSON shape that each
 * vendor's CLI can show: `{type: "error", error: {type, code, message}}`, where `code` is
 * the product's error code and `message` never holds a key or a token.
 */
import type { ServerResponse } from "node:http";

export type GatewayErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "NOT_FOUND"
  | "PAYLOAD_TOO_LARGE"
  | "INTERNAL"
  | "USER.EGRESS.DENIED"
  | "USER.BUDGET.EXCEEDED"
  | "EXECUTION.MODEL_GATEWAY.UPSTREAM_UNREACHABLE"
  | "EXECUTION.MODEL_GATEWAY.UPSTREAM_TIMEOUT";

const ERROR_TYPE: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  500: "api_error",
  502: "api_error",
  504: "timeout_error",
};

export const errorBody = (status: number, code: GatewayErrorCode, message: string) => ({
  type: "error",
  error: { type: ERROR_TYPE[status] ?? "api_error", code, message: `model gateway: ${message}` },
});

export const sendJson = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
};
