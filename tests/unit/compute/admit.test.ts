/**
 * The Compute class's admission under the Pulumi SDK (its mock monitor instead of the engine): with
 * two engine steps, registrations reach the engine a fair share per project, and a registration's
 * turn ends when the engine answers it.
 */
import * as pulumi from "@pulumi/pulumi";
import { unknown } from "@pulumi/pulumi/output";

// What the Node.js language host tells the program (`--parallel 2`), before the first Compute.
process.env.PULUMI_NODEJS_PARALLEL = "2";
delete process.env.NEON_COMPUTE_ADMISSION;

// The test runner may run other files in this process after this one.
afterAll(() => {
  delete process.env.PULUMI_NODEJS_PARALLEL;
});

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

test("a registration with an unknown input is not held (pulumi up --target, --continue-on-error)", async () => {
  const before = registered.length;
  const x = ["x1", "x2", "x3"].map(
    (name) => new plugin.Compute(name, { projectId: "project-x", branchId: `br-${name}`, type: "read_only" }),
  );
  await settle(() => registered.length >= before + 2);
  await settle(() => false);
  // One project with work: two in flight, x3 waits for a turn.
  expect(registered.slice(before)).toEqual(["x1", "x2"]);
  new plugin.Compute("x-unknown", {
    projectId: "project-x",
    branchId: pulumi.output(unknown) as pulumi.Output<string>,
    type: "read_only",
  });
  await settle(() => registered.includes("x-unknown"));
  expect(registered.slice(before)).toEqual(["x1", "x2", "x-unknown"]);
  for (const name of ["x1", "x2", "x-unknown"]) answers.get(name)!();
  await settle(() => registered.includes("x3"));
  answers.get("x3")!();
  await Promise.all(x.map((c) => new Promise((resolve) => c.id.apply(resolve))));
});

test("children wait for their parent before they take a turn, so the parent gets one", async () => {
  const before = registered.length;
  let branchOfPrimary!: (b: string) => void;
  const primary = new plugin.Compute("y-primary", {
    projectId: "project-y",
    branchId: new Promise<string>((resolve) => (branchOfPrimary = resolve)),
  });
  const replicas = ["y1", "y2", "y3"].map(
    (name) =>
      new plugin.Compute(
        name,
        { projectId: "project-y", branchId: "br-y", type: "read_only" },
        { parent: primary },
      ),
  );
  await settle(() => false);
  // The replicas' inputs are known, but their parent is not registered: none took a turn.
  expect(registered.slice(before)).toEqual([]);
  branchOfPrimary("br-y");
  await settle(() => registered.includes("y-primary"));
  expect(registered.slice(before)).toEqual(["y-primary"]);
  answers.get("y-primary")!();
  await settle(() => registered.length >= before + 3);
  expect(registered.slice(before)).toEqual(["y-primary", "y1", "y2"]);
  for (const name of ["y1", "y2"]) answers.get(name)!();
  await settle(() => registered.includes("y3"));
  answers.get("y3")!();
  await Promise.all(replicas.map((c) => new Promise((resolve) => c.id.apply(resolve))));
});
