/**
 * Compute sizes the emulator accepts, from the limits table of the product spec:
 * 0.25, 0.5, 1–16 step 1, 18–56 step 2; autoscaling (min ≠ max) only up to 16 CU;
 * the free plan up to 2 CU. Kept here (not imported from the provider) on purpose:
 * the emulator must check the provider, not share its assumptions.
 */
export const COMPUTE_SIZES: readonly number[] = [
  0.25,
  0.5,
  ...Array.from({ length: 16 }, (_, i) => i + 1),
  ...Array.from({ length: 20 }, (_, i) => 18 + 2 * i),
];
export const MAX_AUTOSCALING_CU = 16;
export const FREE_PLAN_MAX_CU = 2;
export const SIZES_TEXT = "0.25, 0.5, 1 to 16 in steps of 1, 18 to 56 in steps of 2";

/**
 * The plans the emulator models: Free, and two paid ones. Launch and Scale differ here only in what
 * the organization may use (`routes/organizations.ts`: private networking on Scale only).
 */
export type Plan = "free" | "launch" | "scale";

/** The most branches a project of the plan holds (Neon's plans: Free 10; paid plans up to 5,000). */
export function branchLimit(plan: Plan): number {
  return plan === "free" ? 10 : 5000;
}

/**
 * Checks a pair of size bounds; returns the reason they are refused, or
 * undefined when they are allowed.
 */
export function sizeProblem(min: number, max: number, plan: Plan): string | undefined {
  for (const [field, cu] of [
    ["autoscaling_limit_min_cu", min],
    ["autoscaling_limit_max_cu", max],
  ] as const) {
    if (!COMPUTE_SIZES.includes(cu))
      return `${field} ${cu} is not an offered size; allowed sizes are ${SIZES_TEXT}`;
  }
  if (min > max) {
    return `autoscaling_limit_min_cu ${min} is greater than autoscaling_limit_max_cu ${max}; the minimum must not exceed the maximum`;
  }
  if (min !== max && max > MAX_AUTOSCALING_CU) {
    return `autoscaling_limit_max_cu ${max} is above ${MAX_AUTOSCALING_CU}, the largest autoscaling size; sizes above ${MAX_AUTOSCALING_CU} CU are fixed-size only (set min = max)`;
  }
  if (plan === "free" && max > FREE_PLAN_MAX_CU) {
    return `autoscaling_limit_max_cu ${max} exceeds the free plan limit of ${FREE_PLAN_MAX_CU} CU; choose a size up to ${FREE_PLAN_MAX_CU} CU or upgrade the plan`;
  }
  return undefined;
}
