/**
 * `Branch`'s `importId`: said at preview (and refused there when the declared inputs differ from the
 * branch), carried out at create, where nothing is changed — the branch is adopted as it is.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Branch } from "../../api";
import { changedInput } from "../compare";
import { readImported, UNKNOWN, type Checked, type Stated, type TakeOverStep } from "../kit";
import type { Runtime } from "../runtime";
import { BRANCH_DEFINITION } from "./definition";
import { describeBranch, toOutputs } from "./mapping";
import { readWriteCompute } from "./rules";
import type { BranchInputs, BranchOutputs } from "./types";

/**
 * The keys of the declared annotations whose values the branch does not carry (a branch may carry
 * more: other tools write theirs); none while a declared value is unknown.
 */
export function differingAnnotations(
  declared: Record<string, string> | undefined,
  actual: Record<string, string> | undefined,
): string[] {
  if (!declared || typeof declared !== "object" || JSON.stringify(declared).includes(UNKNOWN)) return [];
  const has: Record<string, string> = actual && typeof actual === "object" ? actual : {};
  return Object.entries(declared)
    .filter(([k, v]) => has[k] !== v)
    .map(([k]) => k);
}

/** What of the declared inputs differs from the branch `actual` (its outputs), as a sentence; or nothing. */
function importDifferences(inputs: Checked<BranchInputs>, actual: Stated<BranchOutputs>): string | undefined {
  const differences = [
    "name",
    "parentId",
    "parentTimestamp",
    "parentLsn",
    "initSource",
    "protected",
    "compute",
  ]
    .filter(
      (k) =>
        inputs[k] !== undefined &&
        inputs[k] !== UNKNOWN &&
        changedInput(BRANCH_DEFINITION, k, actual, inputs),
    )
    .map((k) => `${k}: declared ${JSON.stringify(inputs[k])}, actual ${JSON.stringify(actual[k])}`);
  // Annotation values may be secrets: the keys only.
  const keys = differingAnnotations(inputs.annotations, actual.annotations);
  if (keys.length > 0) {
    differences.push(
      `annotations: the branch does not carry the declared ${keys.map((k) => `"${k}"`).join(", ")}`,
    );
  }
  if (differences.length === 0) return undefined;
  return (
    `the declared inputs differ from the branch (${differences.join("; ")}). Import changes nothing: make the ` +
    "program match the branch, import, then change it in a later update."
  );
}

/**
 * At preview, a new resource with `importId`: says it will adopt the branch, and fails when the
 * declared inputs differ from it (found at preview, not at `up`). Two reads; none while unknown.
 */
export async function previewImport(
  rt: Runtime,
  inputs: Checked<BranchInputs>,
): Promise<pulumi.dynamic.CheckResult["failures"]> {
  const importId = inputs.importId;
  if (typeof importId !== "string" || importId === UNKNOWN) return [];
  const [projectId, branchId] = importId.split("/");
  const api = rt.client();
  let found: { branch: Branch; annotation: Record<string, string> };
  try {
    found = await api.branches.getAnnotated(projectId, branchId);
  } catch (err) {
    if (!(err instanceof ApiError && err.kind === "not_found")) throw err;
    return [
      {
        property: "importId",
        reason: `importId ${importId}: no such branch (or the API key cannot see it); check importId, or remove it to create a new branch`,
      },
    ];
  }
  const b = found.branch;
  const ep = await readWriteCompute(api, projectId, b.id);
  const detail = importDifferences(inputs, toOutputs({}, b, ep, found.annotation));
  if (detail) return [{ property: "importId", reason: `importId ${importId}: ${detail}` }];
  rt.logger(inputs).info(
    `will import ${describeBranch(b)} (importId) as it is; deleting this resource later deletes the branch`,
  );
  return [];
}

/** Adopts the branch `importId` names; the declared inputs must describe it as it is. */
export const importExisting: TakeOverStep<BranchInputs, BranchInputs> = async (rt, inputs, i) => {
  const api = rt.client();
  const branchId = (i.importId as string).split("/")[1];
  const found = await readImported("branch", i.importId as string, () =>
    api.branches.getAnnotated(i.projectId, branchId),
  );
  const b = found.branch;
  const ep = await readWriteCompute(api, i.projectId, b.id);
  const detail = importDifferences(inputs, toOutputs({}, b, ep, found.annotation));
  if (detail) throw new Error(`Failed to import ${describeBranch(b)}: ${detail}`);
  rt.logger(inputs).info(`imported ${describeBranch(b)}; deleting this resource will delete the branch`);
  return { id: b.id, outs: toOutputs(inputs, b, ep, found.annotation) };
};
