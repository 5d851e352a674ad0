/**
 * `Role` and `Database` names at check (issue 25): names Postgres reserves (`pg_…`, `public`) and the
 * service's own (`neon_superuser`) are refused for a role the stack creates, not for one it takes
 * over; control characters and edge spaces are refused for both. Pure.
 */
import { checkInputs as checkRole } from "../../../provider/resources/role/inputs";
import { checkInputs as checkDatabase } from "../../../provider/resources/database/inputs";

const where = { projectId: "shiny-wind-123456", branchId: "br-cool-sky-123456" };

describe("role names", () => {
  it.each(["pg_app", "public", "none", "current_user", "neon_superuser", "cloud_admin"])(
    "%p is refused for a new role, naming the rule",
    (name) => {
      expect(checkRole({ ...where, name }).failures).toEqual([
        { property: "name", reason: expect.stringMatching(/reserves|keeps the role .* for itself/) },
      ]);
    },
  );

  it("Postgres compares them case-sensitively: a quoted PG_monitor is an ordinary name", () => {
    expect(checkRole({ ...where, name: "PG_monitor" }).failures).toEqual([]);
  });

  it("a reserved name is not judged for a role taken over (adopt)", () => {
    expect(checkRole({ ...where, name: "neon_superuser", adopt: true }).failures).toEqual([]);
  });

  it.each(["app\n", "a\u0000b", "a\u0085b", "a\u2028b", "a\u2029b", "a\u009fb", " app", "app "])(
    "%p is refused for a role and a database",
    (name) => {
      expect(checkRole({ ...where, name }).failures.map((f) => f.property)).toEqual(["name"]);
      expect(checkDatabase({ ...where, name, ownerName: "app" }).failures.map((f) => f.property)).toEqual([
        "name",
      ]);
    },
  );

  it("an ordinary name passes, letters beyond ASCII included", () => {
    expect(checkRole({ ...where, name: "app_rw" }).failures).toEqual([]);
    expect(checkRole({ ...where, name: "café_€\u00a0x" }).failures).toEqual([]);
  });
});
