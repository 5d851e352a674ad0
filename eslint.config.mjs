import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      ".pulumi-tmp/**",
      "dist/**",
      "node_modules/**",
      "**/node_modules/**",
      "coverage/**",
      "jest.config.js",
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Dynamic provider code must `require()` lazily inside methods (closure serialization).
      "@typescript-eslint/no-require-imports": "off",
    },
  },
);
