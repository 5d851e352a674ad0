/**
 * The diff a definition implies (provider/resources/compare.ts): each way of comparing an input,
 * and the replace / update / refused lists and detailed-diff keys derived from the definitions.
 */
import {
  changedInput,
  definedChangedKeys,
  definedDiff,
  inputChanged,
} from "../../../provider/resources/compare";
import type { Comparison, PropertyDef } from "../../../provider/resources/definition";
import { BRANCH_DEFINITION } from "../../../provider/resources/branch/definition";
import { PROJECT_DEFINITION } from "../../../provider/resources/project/definition";
import { ROLE_DEFINITION } from "../../../provider/resources/role/definition";
import { DATABASE_DEFINITION } from "../../../provider/resources/database/definition";
import { diffResult, UNKNOWN } from "../../../provider/resources/kit";

const input = (compare?: Comparison): PropertyDef => ({
  name: "x",
  type: "string",
  description: "x",
  input: "optional",
  change: "update",
  ...(compare ? { compare } : {}),
});
const changed = (compare: Comparison | undefined, old: unknown, next: unknown) =>
  inputChanged(input(compare), old === undefined ? {} : { x: old }, next === undefined ? {} : { x: next });

describe("inputChanged", () => {
  it("value (the default): any difference, and leaving it out clears it", () => {
    expect([
      changed(undefined, "a", "a"),
      changed(undefined, "a", "b"),
      changed(undefined, "a", undefined),
    ]).toEqual([false, true, true]);
    expect(changed("value", null, undefined)).toBe(false);
  });

  it("kept-when-absent: left out, the current value stands", () => {
    expect([changed("kept-when-absent", "a", undefined), changed("kept-when-absent", "a", "b")]).toEqual([
      false,
      true,
    ]);
  });

  it("nested: only the keys given are compared; left out, nothing changes", () => {
    expect(changed("nested", { a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(changed("nested", { a: 1, b: 2 }, { b: 3 })).toBe(true);
    expect(changed("nested", { a: 1 }, { a: UNKNOWN })).toBe(true);
    expect(changed("nested", { a: 1 }, undefined)).toBe(false);
  });

  it("false-when-absent: absence means false", () => {
    expect([
      changed("false-when-absent", false, undefined),
      changed("false-when-absent", true, undefined),
    ]).toEqual([false, true]);
  });

  it("true-when-absent: absence means true", () => {
    expect([
      changed("true-when-absent", true, undefined),
      changed("true-when-absent", undefined, true),
      changed("true-when-absent", false, undefined),
      changed("true-when-absent", undefined, false),
    ]).toEqual([false, false, true, true]);
  });

  it("trigger: a new value given changes it; left out, nothing to do", () => {
    expect([
      changed("trigger", "1", undefined),
      changed("trigger", "1", "1"),
      changed("trigger", "1", "2"),
    ]).toEqual([false, false, true]);
  });

  it("instant: one instant however written; removing it is a change", () => {
    expect(changed("instant", "2026-12-01T00:00:00.000Z", "2026-12-01T01:00:00+01:00")).toBe(false);
    expect(changed("instant", "2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z")).toBe(true);
    expect(changed("instant", "2026-12-01T00:00:00Z", undefined)).toBe(true);
  });

  it("a value unknown at preview is always a change", () => {
    for (const c of [
      "value",
      "kept-when-absent",
      "false-when-absent",
      "true-when-absent",
      "trigger",
      "instant",
    ] as const) {
      expect([c, changed(c, "a", UNKNOWN)]).toEqual([c, true]);
    }
  });

  it("names a missing input", () => {
    expect(() => changedInput(ROLE_DEFINITION, "nope", {}, {})).toThrow("Role has no input nope");
  });
});

describe("definedDiff over the definitions", () => {
  it("Branch: replaces on projectId/parentId, updates in place, keeps what the program leaves out", () => {
    const olds = {
      projectId: "p",
      parentId: "br-a",
      name: "n",
      protected: false,
      compute: { minCu: 1, maxCu: 1 },
    };
    expect(definedDiff(BRANCH_DEFINITION, olds, { projectId: "p" })).toEqual({
      replaces: [],
      updates: [],
      refused: [],
      changes: false,
      // The inputs a change would replace it for, and the outputs marked stable.
      stables: [
        "projectId",
        "parentId",
        "parentTimestamp",
        "parentLsn",
        "initSource",
        "restoreFrom",
        "default",
        "createdAt",
      ],
    });
    const d = definedDiff(BRANCH_DEFINITION, olds, {
      projectId: "p",
      parentId: "br-b",
      compute: { maxCu: 2 },
      resetTrigger: "1",
    });
    expect([d.replaces, d.updates]).toEqual([["parentId"], ["compute", "resetTrigger"]]);
    // A replacement keeps nothing.
    expect(d.stables).toEqual([]);
    // Nor does one a step adds itself (Branch: an unfinished creation is replaced).
    const unfinished = definedDiff(BRANCH_DEFINITION, olds, { projectId: "p" });
    unfinished.replaces.push("currentState");
    expect(diffResult(unfinished, true)).toEqual({
      changes: false,
      replaces: ["currentState"],
      stables: [],
      deleteBeforeReplace: true,
    });
  });

  it("Role: a rename or noLogin replaces; a rotation trigger updates", () => {
    const olds = {
      projectId: "p",
      branchId: "br-a",
      name: "app",
      noLogin: false,
      passwordRotationTrigger: "1",
    };
    expect(
      definedChangedKeys(ROLE_DEFINITION, olds, { ...olds, name: "app2", passwordRotationTrigger: "2" }),
    ).toEqual(["name", "passwordRotationTrigger"]);
    expect(definedDiff(ROLE_DEFINITION, olds, { ...olds, noLogin: undefined }).changes).toBe(false);
  });

  it("Database: name and owner in place; the branch replaces", () => {
    const olds = { projectId: "p", branchId: "br-a", name: "d", ownerName: "o" };
    const d = definedDiff(DATABASE_DEFINITION, olds, { ...olds, branchId: "br-b", ownerName: "o2" });
    expect([d.replaces, d.updates]).toEqual([["branchId"], ["ownerName"]]);
  });

  it("Project: settings fixed at creation are refused; left out, nothing changes", () => {
    const olds = { name: "n", regionId: "aws-us-east-2", pgVersion: 17, historyRetentionSeconds: 86400 };
    expect(definedDiff(PROJECT_DEFINITION, olds, {}).changes).toBe(false);
    const d = definedDiff(PROJECT_DEFINITION, olds, { regionId: "aws-eu-central-1", name: "m" });
    expect([d.refused, d.updates]).toEqual([["regionId"], ["name"]]);
    expect(definedChangedKeys(PROJECT_DEFINITION, olds, { regionId: "aws-eu-central-1", name: "m" })).toEqual(
      ["regionId", "name"],
    );
  });
});
