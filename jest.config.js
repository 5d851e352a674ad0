const path = require("path");

// The newest toolchain leg of `npm test` (scripts/test) runs the tests against another
// @pulumi/pulumi, installed outside the checkout: every import of the package goes there.
const sdkDir = process.env.NEON_TEST_PULUMI_SDK_DIR;

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  // Transpiled file by file (tsconfig.json sets isolatedModules): types are `npm run typecheck`'s job.
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }],
    // GitHub's expression evaluator (the workflow runner's) ships ES modules only: made CommonJS here.
    "/node_modules/@actions/expressions/.+\\.js$": [
      "ts-jest",
      { tsconfig: { allowJs: true, module: "commonjs", target: "es2022" }, diagnostics: false },
    ],
  },
  transformIgnorePatterns: ["/node_modules/(?!@actions/expressions/)"],
  moduleNameMapper: {
    // Its package exports only an `import` condition, which CommonJS resolution does not take.
    "^@actions/expressions$": "<rootDir>/node_modules/@actions/expressions/dist/index.js",
    ...(sdkDir ? { "^@pulumi/pulumi(/.*)?$": path.join(sdkDir, "node_modules/@pulumi/pulumi") + "$1" } : {}),
  },
  reporters: ["default", "<rootDir>/tests/support/timing-reporter.js"],
  // e2e tests build on a real Pulumi CLI; they get generous timeouts of their own.
  testTimeout: 30000,
};
