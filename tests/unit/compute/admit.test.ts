/**
 * The Compute class's admission under the Pulumi SDK (its mock monitor instead of the engine): with
 * two engine steps, registrations reach the engine a fair share per project, and a registration's
 * turn ends when the engine answers it.
 */
import * as pulumi from "@pulumi/pulumi";

// What the Node.js language host tells the program (`--parallel 2`), before the first Compute.
process.env.PULUMI_NODEJS_PARALLEL = "2";
delete process.env.NEON_COMPUTE_ADMISSION;

const registered: string[] = [];
const projectOf = new Map<string, unknown>();
const answers = new Map<string, () => void>();

pulumi.runtime.setMocks(
  {
    // The "engine": notes the registration, and answers it when the test says so.
    newResource: async (args) => {
      registered.push(args.name);
      projectOf.set(args.name, args.inputs.projectId);
      await new Promise<void>((resolve) => answers.set(args.name, resolve));
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: () => ({}),
  },
  "project",
  "stack",
  false,
);

// Loaded after the mocks are set, as a program loads it after the runtime is configured.
const { plugin } = require("../../../provider") as typeof import("../../../provider");

/** Lets the SDK's promise chains run until `done` holds (no clock involved). */
async function settle(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise<void>((r) => setImmediate(r));
}

test("two steps, five computes of two projects declared project by project: both projects go first", async () => {
  const declare = (name: string, projectId: string) =>
    new plugin.Compute(name, { projectId, branchId: `br-${name}`, type: "read_only" });
  const computes = [
    declare("a1", "project-a"),
    declare("a2", "project-a"),
    declare("a3", "project-a"),
    declare("b1", "project-b"),
    declare("b2", "project-b"),
  ];
  // Two per project with work: a1, b1, a2, b2 are in flight; a3 waits for a turn.
  await settle(() => registered.length >= 4);
  await settle(() => false);
  expect(registered).toEqual(["a1", "b1", "a2", "b2"]);
  // The engine finishes a1: project a has one in flight again, so a3 goes.
  answers.get("a1")!();
  await settle(() => registered.length >= 5);
  expect(registered).toEqual(["a1", "b1", "a2", "b2", "a3"]);
  for (const name of ["b1", "a2", "b2", "a3"]) answers.get(name)!();
  const ids = await Promise.all(
    computes.map((c) => new Promise<string>((resolve) => c.id.apply((id) => (resolve(id), id)))),
  );
  expect(ids).toEqual(["a1-id", "a2-id", "a3-id", "b1-id", "b2-id"]);
  // The held input reaches the engine unchanged.
  expect(projectOf.get("a3")).toBe("project-a");
  expect(projectOf.get("b2")).toBe("project-b");
});
