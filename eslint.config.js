// One typed lint configuration for every workspace; packages run `eslint src`.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/generated/**",
      "**/.next/**",
      "**/dist/**",
      "**/*.js",
      "**/*.mjs",
      "**/next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read the environment only in an app's env.ts (or in tests).",
        },
      ],
    },
  },
  {
    // The Node-side workspaces share one TypeScript program (tsconfig.typecheck.json, as the
    // typecheck does): one lint process then computes types once, not once per workspace.
    files: ["apps/gateway/**", "apps/worker/**", "packages/**", "e2e/**", "deploy/**"],
    languageOptions: {
      parserOptions: { projectService: false, project: "./tsconfig.typecheck.json" },
    },
  },
  {
    // The web app's pages are their own TypeScript project (DOM, JSX and Next's global types,
    // which the Node side must not see): apps/web/tsconfig.next.json.
    files: [
      "apps/web/src/app/**",
      "apps/web/src/components/**",
      "apps/web/src/trpc/**",
      "apps/web/src/proxy.ts",
    ],
    languageOptions: {
      parserOptions: { projectService: false, project: "./apps/web/tsconfig.next.json" },
    },
  },
  {
    files: [
      "**/*.test.ts",
      "**/test/**",
      "**/env.ts",
      "**/scripts/**",
      "**/bench/**",
      "**/*.config.ts",
      "**/testing/**",
      "e2e/**",
    ],
    rules: { "no-restricted-properties": "off" },
  },
);
