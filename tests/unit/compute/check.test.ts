import { checkInputs, UNKNOWN } from "../../../provider/resources/compute/inputs";

const base = { projectId: "shiny-wind-123456", branchId: "br-main-1" };

function failuresOf(news: Record<string, unknown>) {
  return checkInputs(news).failures;
}

describe("check", () => {
  it("accepts minimal inputs and defaults the type to read_write", () => {
    const r = checkInputs({ ...base });
    expect(r.failures).toEqual([]);
    expect(r.inputs.type).toBe("read_write");
  });

  it.each([0.25, 0.5, 1, 16, 18, 56])("accepts the offered fixed size %p", (cu) => {
    const r = checkInputs({ ...base, cu });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject({ minCu: cu, maxCu: cu });
  });

  it("accepts autoscaling at the edges", () => {
    expect(failuresOf({ ...base, minCu: 0.25, maxCu: 16 })).toEqual([]);
    expect(failuresOf({ ...base, minCu: 56, maxCu: 56 })).toEqual([]);
  });

  it.each([0, 0.1, 0.75, 17, 19, 57, -2])(
    "rejects the size %p with the offered sizes in the reason",
    (cu) => {
      const f = failuresOf({ ...base, cu });
      expect(f).toHaveLength(1);
      expect(f[0].property).toBe("cu");
      expect(f[0].reason).toMatch(/0\.25, 0\.5, 1 to 16/);
    },
  );

  it("rejects autoscaling above 16 CU", () => {
    const f = failuresOf({ ...base, minCu: 8, maxCu: 18 });
    expect(f).toEqual([expect.objectContaining({ property: "maxCu" })]);
    expect(f[0].reason).toMatch(/only up to 16 CU/);
  });

  it("rejects min above max", () => {
    expect(failuresOf({ ...base, minCu: 4, maxCu: 2 })).toEqual([
      { property: "minCu", reason: "minCu (4) must not exceed maxCu (2)" },
    ]);
  });

  it("requires both bounds, or cu alone", () => {
    expect(failuresOf({ ...base, minCu: 1 })[0]).toMatchObject({ property: "maxCu" });
    expect(failuresOf({ ...base, maxCu: 1 })[0]).toMatchObject({ property: "minCu" });
    expect(failuresOf({ ...base, cu: 1, maxCu: 2 })[0]).toMatchObject({ property: "cu" });
  });

  it("rejects autoscaling on the k8s-pod provisioner", () => {
    expect(failuresOf({ ...base, minCu: 1, maxCu: 2, provisioner: "k8s-pod" })[0]).toMatchObject({
      property: "provisioner",
    });
  });

  it.each([-1, 0, 60, 604800])("accepts the suspend timeout %p", (s) => {
    expect(failuresOf({ ...base, suspendTimeoutSeconds: s })).toEqual([]);
  });

  it.each([-2, 1, 59, 604801, 61.5])("rejects the suspend timeout %p", (s) => {
    const f = failuresOf({ ...base, suspendTimeoutSeconds: s });
    expect(f).toHaveLength(1);
    expect(f[0].property).toBe("suspendTimeoutSeconds");
  });

  it("checks the form of ids", () => {
    expect(failuresOf({ projectId: "Bad_Id", branchId: "main" }).map((f) => f.property)).toEqual([
      "projectId",
      "branchId",
    ]);
    expect(
      failuresOf({})
        .map((f) => f.property)
        .sort(),
    ).toEqual(["branchId", "projectId"]);
  });

  it("requires pg_settings values to be strings and names the key", () => {
    const f = failuresOf({ ...base, pgSettings: { work_mem: 64, max_wal_size: "1GB" } });
    expect(f).toEqual([expect.objectContaining({ property: "pgSettings.work_mem" })]);
    expect(f[0].reason).toMatch(/strings/);
  });

  it("rejects an unknown type, pooler mode, provisioner, name and stray properties", () => {
    const f = failuresOf({
      ...base,
      type: "read_replica",
      poolerMode: "session",
      provisioner: "docker",
      name: "",
      mincu: 1,
    });
    expect(f.map((x) => x.property).sort()).toEqual(["mincu", "name", "poolerMode", "provisioner", "type"]);
  });

  it("reports every bad property at once", () => {
    expect(failuresOf({ ...base, cu: 3.5, suspendTimeoutSeconds: 5, disabled: "yes" })).toHaveLength(3);
  });

  it("never fails on values unknown during preview", () => {
    const r = checkInputs({
      projectId: UNKNOWN,
      branchId: UNKNOWN,
      cu: UNKNOWN,
      pgSettings: { a: UNKNOWN, b: "1" },
      name: UNKNOWN,
    });
    expect(r.failures).toEqual([]);
    expect(r.inputs.cu).toBe(UNKNOWN);
    // The bounds follow cu, so the preview shows the (possible) resize.
    expect(r.inputs).toMatchObject({ minCu: UNKNOWN, maxCu: UNKNOWN });
  });

  it("checks the form of importId and that it names the same project", () => {
    expect(failuresOf({ ...base, importId: `${base.projectId}/ep-cool-sky-1` })).toEqual([]);
    expect(failuresOf({ ...base, importId: "ep-cool-sky-1" })[0]).toMatchObject({ property: "importId" });
    expect(failuresOf({ ...base, importId: "other-project/ep-cool-sky-1" })[0].reason).toMatch(
      /names project other-project but projectId is shiny-wind-123456/,
    );
  });

  it("keeps internal properties out of validation", () => {
    expect(failuresOf({ ...base, __provider: "x", __urn: "urn:pulumi:x", endpointId: undefined })).toEqual(
      [],
    );
  });
});

describe("branchId messages say what is wrong", () => {
  it.each([
    ["main", /starts with "br-"/],
    ["br-", /nothing after "br-"/],
    ["br-Main-1", /lower-case letters, digits and dashes after "br-"/],
    [`br-${"a".repeat(60)}`, /at most 60 characters/],
  ])("%p", (branchId, reason) => {
    const f = failuresOf({ ...base, branchId });
    expect(f).toEqual([{ property: "branchId", reason: expect.stringMatching(reason) }]);
    // One reason per mistake: the id is never said to need a prefix it already has.
    if (branchId.startsWith("br-")) expect(f[0].reason).not.toMatch(/starts with "br-"/);
  });
});

describe("adoptExistingPrimary", () => {
  it("is accepted for a read_write compute", () => {
    expect(failuresOf({ ...base, adoptExistingPrimary: true })).toEqual([]);
  });

  it("is refused for a read replica and together with importId, naming the property", () => {
    expect(failuresOf({ ...base, type: "read_only", adoptExistingPrimary: true })).toEqual([
      { property: "adoptExistingPrimary", reason: expect.stringMatching(/read_write compute; remove it/) },
    ]);
    expect(
      failuresOf({
        ...base,
        adoptExistingPrimary: true,
        importId: "shiny-wind-123456/ep-cool-sky-123456",
      }),
    ).toEqual([{ property: "adoptExistingPrimary", reason: expect.stringMatching(/keep one of them/) }]);
  });

  it("must be a boolean", () => {
    expect(failuresOf({ ...base, adoptExistingPrimary: "yes" })).toEqual([
      { property: "adoptExistingPrimary", reason: expect.stringMatching(/must be true or false/) },
    ]);
  });
});
