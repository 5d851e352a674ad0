/**
 * Inputs of the `ProjectVpcEndpoint` resource and `check`'s pure part: validation at `pulumi preview`.
 * Pure.
 */
import { z } from "zod";
import { checkAgainst, inputsChecked, inputSchema, type InputsCheck } from "../check";
import type { Bag } from "../definition";
import { apiId } from "../branch-objects/objects";
import { vpcEndpointIdRule } from "../vpcendpoint/inputs";
import { PROJECT_VPC_ENDPOINT_DEFINITION } from "./definition";
import type { ProjectVpcEndpointInputs } from "./types";

/** `"<projectId>/<vpcEndpointId>"`. */
export const IMPORT_ID_PATTERN = /^([a-z0-9-]{1,60})\/(vpce-[0-9a-f]{8,17})$/;

const inputsSchema = inputSchema(PROJECT_VPC_ENDPOINT_DEFINITION, {
  projectId: apiId("a project id (1–60 lower-case letters, digits and dashes)"),
  vpcEndpointId: vpcEndpointIdRule,
  label: z.string({ error: 'is required: a label for the restriction, e.g. "app only"' }),
  importId: z.string({ error: "must be a string" }).regex(IMPORT_ID_PATTERN, {
    error: 'must name the restriction to manage, as "<projectId>/<vpcEndpointId>"',
  }),
});

/** Validates raw inputs. Values not known yet (preview) are neither validated nor altered. */
export function checkInputs(news: Bag): InputsCheck<ProjectVpcEndpointInputs> {
  const checked = checkAgainst(PROJECT_VPC_ENDPOINT_DEFINITION, inputsSchema, news);
  const { failures } = checked;
  if (!checked.parsed) return inputsChecked(news, failures);
  const v = checked.value as Partial<ProjectVpcEndpointInputs>;
  const own = `${v.projectId}/${v.vpcEndpointId}`;
  if (
    typeof v.importId === "string" &&
    typeof v.projectId === "string" &&
    typeof v.vpcEndpointId === "string" &&
    v.importId !== own
  ) {
    failures.push({
      property: "importId",
      reason: `importId ${v.importId} names another restriction than this resource's (${own}); make them the same, or remove importId`,
    });
  }
  return inputsChecked(news, failures);
}
