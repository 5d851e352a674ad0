/**
 * The integration tests run against the @pulumi/pulumi the run names: the lockfile's on the floor, the
 * newest one in `npm test`'s newest leg (scripts/test maps every import of the package there through
 * jest.config.js and names its version in NEON_E2E_PULUMI_SDK). A mapping that stopped working would
 * let that leg pass on the floor's SDK.
 */
import * as fs from "fs";
import * as path from "path";

test("every import of @pulumi/pulumi loads the version this run tests", () => {
  const lock = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package-lock.json"), "utf8")) as {
    packages: Record<string, { version: string }>;
  };
  const expected = process.env.NEON_E2E_PULUMI_SDK || lock.packages["node_modules/@pulumi/pulumi"].version;
  const loaded = (require("@pulumi/pulumi/package.json") as { version: string }).version;
  expect(loaded).toBe(expected);
  // The package's own entry comes from the same folder as its package.json.
  expect(path.dirname(require.resolve("@pulumi/pulumi"))).toBe(
    path.dirname(require.resolve("@pulumi/pulumi/package.json")),
  );
});
