// ESLint flat config: the recommended JavaScript and TypeScript rules, formatting left to Prettier (last).
// No type-aware rules: they would need TypeChain's generated bindings (a compile) before every lint, for a third of
// the speed.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  {
    // Installed, built or generated: dependencies, Hardhat's output, TypeChain's bindings, coverage, local data.
    ignores: [
      "**/node_modules/",
      "artifacts/",
      "cache/",
      "typechain-types/",
      "coverage/",
      "coverage.json",
      ".data/",
      "deployments/",
      "dist/",
      "tmp/",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // The input guards match control characters on purpose, to refuse them (http/input-guard.ts, auth/clients.ts, token-metadata/).
      "no-control-regex": "off",
      // `const { field: _, ...rest } = object` is how the code leaves a field out of a copy.
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
  {
    // CommonJS files loaded by require (ts-node's transpiler): require is how they import.
    files: ["**/*.js"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // The hosted pages' scripts run in the browser, as ES modules.
    files: ["server/**/static/*.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["test/**/*.ts"],
    languageOptions: { globals: { ...globals.mocha } },
  },
  prettier,
);
