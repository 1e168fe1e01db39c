import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/.next/**",
      "**/.next-*/**",
      "**/dist/**",
      "**/generated/**",
      // Written by openapi-typescript from the API document (npm run generate -w @switchyard/client).
      "packages/client/src/api-types.ts",
      "**/.data/**",
      "**/next-env.d.ts",
      "**/test-results/**",
      "**/*.mjs",
      "**/*.cjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/switch-exhaustiveness-check": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    // The apps reach the database through packages/db's repositories only (team-scoped,
    // lifecycle rules in one place): no Prisma model call such as db.run.updateMany(...).
    // Test fixtures (integration tests, browser tests) may set rows up directly.
    files: ["apps/**/*.ts", "apps/**/*.tsx"],
    ignores: ["apps/**/*.test.ts", "apps/**/e2e/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...[
          "CallExpression[callee.property.name=/^(find|update|create|delete|upsert|count|aggregate|groupBy)/][callee.object.object.name=/^(db|tx|prisma)$/]",
          "CallExpression[callee.property.name=/^(find|update|create|delete|upsert|count|aggregate|groupBy)/][callee.object.object.property.name=/^(db|tx|prisma)$/]",
        ].map((selector) => ({
          selector,
          message: "Prisma model calls belong in a packages/db repository; call one from the app.",
        })),
      ],
    },
  },
  { files: ["**/*.js"], ...tseslint.configs.disableTypeChecked },
);
