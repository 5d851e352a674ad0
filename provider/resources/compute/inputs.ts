/**
 * Inputs of the `Compute` resource and `check`: validation at `pulumi preview`.
 *
 * Pure: no network, no clock. Every invalid input becomes one `CheckFailure`
 * naming the property and the remedy, so nothing invalid reaches the API.
 */
import { z } from "zod";
import { checkAgainst, inputsChecked, inputSchema, type CheckFailure, type InputsCheck } from "../check";
import { UNKNOWN, type Bag } from "../kit";
import { branchIdRule } from "../branch-objects/objects";
import { didYouMean } from "../settings";
import { COMPUTE_DEFINITION } from "./definition";
import { MAX_AUTOSCALING_CU, isOfferedSize } from "./sizing";
import type { ComputeInputs } from "./types";

export { UNKNOWN, INTERNAL_KEYS } from "../kit";
export type { CheckFailure } from "../check";

export const ENDPOINT_TYPES = ["read_write", "read_only"] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];
export const PROVISIONERS = ["k8s-neonvm", "k8s-pod", "serverless-platform"] as const;

/** Suspend timeout: -1 = never, 0 = the platform default (300 s), else 60–604800 s. */
export const SUSPEND_TIMEOUT_DEFAULT_SECONDS = 300;
export const SUSPEND_TIMEOUT_MIN_SECONDS = 60;
export const SUSPEND_TIMEOUT_MAX_SECONDS = 604800;

const sizesText = "0.25, 0.5, 1 to 16 in steps of 1, or 18 to 56 in steps of 2";

const computeUnit = z
  .number({ error: "must be a number of compute units" })
  .refine(isOfferedSize, { error: `is not an offered compute size; use one of ${sizesText}` });

// The rules of the inputs that need more than their type (the rest come from the definition).
const inputsSchema = inputSchema(COMPUTE_DEFINITION, {
  projectId: z
    .string({ error: "is required: the id of the project that holds the branch" })
    .regex(/^[a-z0-9-]{1,60}$/, {
      error: "must be a project id (1–60 lower-case letters, digits and dashes)",
    }),
  branchId: branchIdRule('is required: the id of the branch to attach the compute to ("br-…")'),
  type: z.enum(ENDPOINT_TYPES, { error: 'must be "read_write" or "read_only"' }),
  cu: computeUnit,
  minCu: computeUnit,
  maxCu: computeUnit,
  suspendTimeoutSeconds: z
    .number({ error: "must be a whole number of seconds" })
    .int({ error: "must be a whole number of seconds" })
    .refine(
      (s) => s === -1 || s === 0 || (s >= SUSPEND_TIMEOUT_MIN_SECONDS && s <= SUSPEND_TIMEOUT_MAX_SECONDS),
      {
        error:
          `must be -1 (never suspend), 0 (platform default, ${SUSPEND_TIMEOUT_DEFAULT_SECONDS} s) ` +
          `or between ${SUSPEND_TIMEOUT_MIN_SECONDS} and ${SUSPEND_TIMEOUT_MAX_SECONDS} seconds`,
      },
    ),

  pgSettings: z.record(
    z.string(),
    z.string({ error: 'values must be strings (for example "100"), as Postgres reads them' }),
    {
      error: "must be a map of Postgres setting names to string values",
    },
  ),

  poolerEnabled: z.boolean({ error: "must be true or false" }),
  poolerMode: z.literal("transaction", { error: 'must be "transaction", the only pooler mode' }),
  disabled: z.boolean({ error: "must be true or false" }),
  name: z
    .string({ error: "must be a string" })
    .min(1, { error: "must not be empty" })
    .max(64, { error: "must be at most 64 characters" }),

  provisioner: z.enum(PROVISIONERS, { error: `must be one of ${PROVISIONERS.join(", ")}` }),
  regionId: z
    .string({ error: "must be a string" })
    .regex(/^[a-z0-9-]{1,64}$/, { error: 'must be a region id such as "aws-us-east-2"' }),

  restartTrigger: z.string({ error: "must be a string; change it to restart the compute" }),
  operationTimeoutSeconds: z
    .number({ error: "must be a number of seconds" })
    .positive({ error: "must be greater than 0 (seconds to wait for the control plane's operations)" }),

  adoptExistingPrimary: z.boolean({
    error: "must be true or false (true adopts the branch's existing read_write compute)",
  }),

  importId: z.string({ error: "must be a string" }).regex(/^[a-z0-9-]{1,60}\/ep-[a-z0-9-]{1,60}$/, {
    error:
      'must name an existing compute as "<projectId>/<endpointId>", e.g. "shiny-wind-123456/ep-cool-sky-123456"',
  }),
});

/**
 * Validates and normalises raw inputs. Properties whose value is not known yet
 * (preview) are neither validated nor altered.
 */
export function checkInputs(news: Bag): InputsCheck<ComputeInputs> {
  const checked = checkAgainst(COMPUTE_DEFINITION, inputsSchema, news);
  const { unknownKeys } = checked;
  const value = checked.value as Partial<ComputeInputs>;
  const failures = [...checked.failures, ...crossFieldFailures(value, unknownKeys)];

  const inputs: Bag = { ...news };
  if (failures.length === 0) {
    if (inputs.type === undefined) inputs.type = "read_write";
    if (unknownKeys.has("cu")) {
      // Known only after apply: the bounds are too, so the preview shows the resize.
      inputs.minCu = UNKNOWN;
      inputs.maxCu = UNKNOWN;
    } else if (typeof value.cu === "number") {
      inputs.minCu = value.cu;
      inputs.maxCu = value.cu;
    }
  }
  return inputsChecked(inputs, failures);
}

function crossFieldFailures(value: Partial<ComputeInputs>, unknownKeys: Set<string>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const has = (k: keyof ComputeInputs) => value[k] !== undefined || unknownKeys.has(k);
  if (typeof value.importId === "string" && typeof value.projectId === "string") {
    const project = value.importId.split("/")[0];
    if (project !== value.projectId) {
      failures.push({
        property: "importId",
        reason: `importId names project ${project} but projectId is ${value.projectId}; make them the same`,
      });
    }
  }
  if (value.adoptExistingPrimary === true && value.type === "read_only") {
    failures.push({
      property: "adoptExistingPrimary",
      reason:
        'adoptExistingPrimary adopts a branch\'s read_write compute; remove it, or remove type "read_only"',
    });
  }
  if (value.adoptExistingPrimary === true && has("importId")) {
    failures.push({
      property: "adoptExistingPrimary",
      reason: "adoptExistingPrimary and importId both adopt a compute; keep one of them",
    });
  }
  if (has("cu") && (has("minCu") || has("maxCu"))) {
    failures.push({
      property: "cu",
      reason:
        "cu sets a fixed size; remove it, or remove minCu and maxCu (set either cu, or both minCu and maxCu)",
    });
    return failures;
  }
  if (has("minCu") !== has("maxCu")) {
    const missing = has("minCu") ? "maxCu" : "minCu";
    failures.push({
      property: missing,
      reason: `${missing} is required when ${missing === "maxCu" ? "minCu" : "maxCu"} is set; set both, or use cu for a fixed size`,
    });
    return failures;
  }
  const { minCu, maxCu } = value;
  if (
    typeof minCu === "number" &&
    typeof maxCu === "number" &&
    isOfferedSize(minCu) &&
    isOfferedSize(maxCu)
  ) {
    if (minCu > maxCu) {
      failures.push({ property: "minCu", reason: `minCu (${minCu}) must not exceed maxCu (${maxCu})` });
    } else if (minCu !== maxCu && maxCu > MAX_AUTOSCALING_CU) {
      failures.push({
        property: "maxCu",
        reason:
          `autoscaling (minCu ${minCu} ≠ maxCu ${maxCu}) is offered only up to ${MAX_AUTOSCALING_CU} CU; ` +
          `lower maxCu to ${MAX_AUTOSCALING_CU} or less, or use a fixed size (cu) above ${MAX_AUTOSCALING_CU}`,
      });
    } else if (minCu !== maxCu && value.provisioner === "k8s-pod") {
      failures.push({
        property: "provisioner",
        reason:
          'autoscaling needs the "k8s-neonvm" provisioner; remove provisioner or set it to "k8s-neonvm"',
      });
    }
  }
  return failures;
}

/** The compute settings a `Branch` or `Project` declares in an object input (`compute`, `defaultCompute`). */
export const NESTED_COMPUTE_KEYS = ["cu", "minCu", "maxCu", "suspendTimeoutSeconds"] as const;

/**
 * Checks a compute-settings object input by Compute's own rules (sizes, autoscaling bounds, suspend
 * timeout), naming failures `<property>.<key>`; `value` is the normalised object (`cu` resolved into
 * equal `minCu`/`maxCu`) when there are none.
 */
export function checkNestedCompute(
  property: string,
  settings: Bag,
  usedFor: string,
): { value?: Bag; failures: CheckFailure[] } {
  const keys: readonly string[] = NESTED_COMPUTE_KEYS;
  const failures: CheckFailure[] = Object.keys(settings)
    .filter((k) => !keys.includes(k))
    .map((k) => ({
      property: `${property}.${k}`,
      reason: `${property}.${k} is not a setting of ${usedFor}${didYouMean(k, keys, `${property}.`)} (they are ${keys.join(", ")})`,
    }));
  const known = Object.fromEntries(Object.entries(settings).filter(([k]) => keys.includes(k)));
  const r = checkInputs({ projectId: "p", branchId: "br-p", type: "read_write", ...known });
  for (const f of r.failures)
    failures.push({ property: `${property}.${f.property}`, reason: `${property}.${f.reason}` });
  if (r.failures.length > 0) return { failures };
  const value: Bag = { ...known };
  if (r.inputs.minCu !== undefined) value.minCu = r.inputs.minCu;
  if (r.inputs.maxCu !== undefined) value.maxCu = r.inputs.maxCu;
  delete value.cu;
  return { value, failures };
}

/**
 * Checks the compute settings an input of another resource nests (`Branch.compute`,
 * `Project.defaultCompute`; `given` as the schema parsed it) when it is an object, and puts the normalized settings into `inputs`.
 * Failures are reported against the input itself (the reason names the setting): the engine prints
 * the value of a failure's property and looks up only top-level inputs (`compute.maxCU` printed `{<nil>}`).
 */
export function checkComputeInput(
  inputs: Bag,
  property: string,
  given: unknown,
  usedFor: string,
): CheckFailure[] {
  if (!given || typeof given !== "object" || Array.isArray(given)) return [];
  const c = checkNestedCompute(property, given as Bag, usedFor);
  if (c.value) inputs[property] = c.value;
  return c.failures.map((f) => ({ ...f, property }));
}
