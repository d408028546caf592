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
