import { describe, expect, it } from "vitest";
import { namesASecret, secretLookalike } from "./secret-lookalike";

// Made-up values of the real shapes: long enough, random enough, never real credentials.
const TRUE_POSITIVES: [string, string][] = [
  ["sk-proj-4fT9kQ2mXz7LpR3vW8nB1cY6dH0sJ5gA", "an API key (sk-…)"],
  ["sk-ant-api03-Zx8Qv2Lm9Tr4Wp7Kd1Nf6Hs3Jb0Gc5Ye", "an Anthropic API key"],
  ["sk_live_51HxQ2mLp9Zt4Kw8Vr3Nd7Fs", "a Stripe secret key"],
  ["rk_test_51HxQ2mLp9Zt4Kw8Vr3Nd7Fs", "a Stripe secret key"],
  ["ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ", "a GitHub token"],
  ["gho_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ", "a GitHub token"],
  ["ghs_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ", "a GitHub token"],
  ["github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "a GitHub token"],
  ["xoxb-1234567890-0987654321-AbCdEfGhIjKl", "a Slack token"],
  ["xoxp-1234567890-0987654321", "a Slack token"],
  ["xoxa-2-abcdefghij1234", "a Slack token"],
  ["AKIAIOSFODNN7EXAMPLE", "an AWS access key id"],
  ["AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "a Google API key"],
  ["Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "a bearer token"],
  ["authorization: bearer abcDEF1234567890xyz", "a bearer token"],
  ["-----BEGIN RSA PRIVATE KEY-----\nMIIEow...", "a private key"],
  ["-----BEGIN OPENSSH PRIVATE KEY-----", "a private key"],
  ["-----BEGIN PRIVATE KEY-----", "a private key"],
  [
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk",
    "a JSON Web Token",
  ],
  ["glpat-Ab1Cd2Ef3Gh4Ij5Kl6Mn", "a GitLab token"],
  ["lin_api_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3", "a Linear API key"],
  ["sntryu_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv", "a Sentry token"],
  ["ntn_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2", "a Notion token"],
  // long random strings: base64, base64url, alphanumeric, lowercase, hex
  ["Q2xhdWRlSXNOb3RBU2VjcmV0QnV0VGhpczFz+/Rk9m", "a long random-looking string"],
  ["kX9_vB2-nM4qL7wP1zR8tY3uI6oE5aS0dF", "a long random-looking string"],
  ["a8f5f167f44f4964e6c998dee827110c", "a long hex string"],
  ["0d4c9e5f2b7a8e1c3f6a9d2b5e8c1f4a7d0b3e6c9f2a5d8b1e4c7f0a3d6b9e2c", "a long hex string"],
  ["n3k8d2m7x9q4w1z6p0r5t8y2u7i4o1e9", "a long random-looking string"],
  // inside a longer value
  ["--api=https://x.example/?k=Zx8Qv2Lm9Tr4Wp7Kd1Nf6Hs3Jb0Gc5Ye1", "a long random-looking string"],
  ["token:ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ used here", "a GitHub token"],
];

const FALSE_POSITIVES: string[] = [
  "/opt/connectors/fixture-3f8a1c6e9d2b.mjs",
  "/opt/connectors/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
  "./node_modules/.bin/mcp-server-filesystem",
  "",
  "--model=claude-sonnet-4-5",
  "550e8400-e29b-41d4-a716-446655440000",
  "--workspace=550e8400-e29b-41d4-a716-446655440000,6ba7b810-9dad-11d1-80b4-00c04fd430c8",
  "/home/alice/projects/switchyard/packages/core/src/connectors",
  "/usr/local/lib/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
  "projects/my-project-123456/locations/us-central1/instances/production-database",
  "s3://my-bucket-name-2024/data/exports/2025/01/01/part-0001.parquet",
  "Ubuntu-22.04-x86_64-server-cloudimg-amd64-disk-kvm-v20250101",
  "node_modules/.bin/mcp-server-postgres-v2.3.1-linux-x64-musl",
  "https://mcp.linear.app/mcp",
  "https://api.example.com/v2/organizations/acme-corporation/projects/123456/issues?state=open&per_page=50",
  "ghcr.io/github/github-mcp-server@sha256:0d4c9e5f2b7a8e1c3f6a9d2b5e8c1f4a7d0b3e6c9f2a5d8b1e4c7f0a3d6b9e2c",
  "git+https://github.com/acme/mcp-server@3f2a9b1c4d5e6f708192a3b4c5d6e7f8091a2b3c",
  "arn:aws:iam::123456789012:role/service-role/MyLambdaExecutionRole2024",
  "ReadOnlyAccessForTheAnalyticsWarehouseAndReportingDashboards",
  "MY_VERY_LONG_ENVIRONMENT_VARIABLE_NAME_WITH_MANY_WORDS",
  "abcdefghijklmnopqrstuvwxyz0123456789",
  "The quick brown fox jumps over the lazy dog, then files an issue in Linear.",
  "Reads issues; a Bearer token is stored as the credential and sent per request.",
  "Uses sk-learn style models for classification of incoming support tickets",
  "io.github.someone.very-long-server-name-for-testing-things",
  "gs://b/p1/p2/p3/p4/p5/p6/p7/p8/p9/p10/p11/p12/x1y2z3",
  "--filter=label:bug,label:needs-triage,assignee:none,sort:updated-desc",
];

describe("secretLookalike", () => {
  it.each(TRUE_POSITIVES)("flags %j as %s", (value, what) => {
    expect(secretLookalike(value)).toBe(what);
  });

  it.each(FALSE_POSITIVES)("lets %j pass", (value) => {
    expect(secretLookalike(value)).toBeUndefined();
  });

  it("refuses a hex string of any length but a commit id's, whatever surrounds it", () => {
    const commit = "3f2a9b1c4d5e6f708192a3b4c5d6e7f8091a2b3c";
    expect(secretLookalike(`--ref=${commit}`)).toBeUndefined();
    expect(secretLookalike(`--ref=${commit}ab`)).toBe("a long hex string");
    expect(secretLookalike(`--key=${commit.slice(0, 32)}`)).toBe("a long hex string");
  });
});

describe("namesASecret", () => {
  it.each([
    "GITHUB_TOKEN",
    "token",
    "API_KEY",
    "apiKey",
    "api-key",
    "X-API-Key",
    "DB_PASSWORD",
    "CLIENT_SECRET",
    "access_token",
    "GITHUB_PAT",
    "AWS_SECRET_ACCESS_KEY",
    "PRIVATE_KEY",
  ])("%s names a secret", (name) => expect(namesASecret(name)).toBe(true));

  it.each([
    "MAX_TOKENS",
    "TOKEN_URL",
    "SORT_KEY",
    "PASSWORD_MIN_LENGTH",
    "PATH",
    "COMPAT",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "model",
    "X-MCP-Toolsets",
  ])("%s does not", (name) => expect(namesASecret(name)).toBe(false));
});
