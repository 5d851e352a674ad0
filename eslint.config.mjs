import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      ".pulumi-tmp/**",
      "dist/**",
      ".dist-*/**",
      "node_modules/**",
      "**/node_modules/**",
      "coverage/**",
      "sdk/**",
      "jest.config.js",
    ],
  },
  ...tseslint.configs.recommended,
  {
    // A stale disable comment hides nothing today and silences a real problem tomorrow: fail on it.
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Dynamic provider code must `require()` lazily inside methods (closure serialization).
      "@typescript-eslint/no-require-imports": "off",
    },
  },
);
