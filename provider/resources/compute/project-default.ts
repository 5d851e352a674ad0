/**
 * A compute's `suspend_timeout_seconds: 0` means "the project's default": the project's own
 * `default_endpoint_settings.suspend_timeout_seconds` when it has one, else the service's 300 s. When
 * a comparison of the old and new timeout depends on that (exactly one of them is 0), the project is
 * read and its default handed to the comparison (`diff.ts`); otherwise nothing is sent.
 */
import type { NeonClient } from "../../api";
import { UNKNOWN, type Checked, type Stated } from "../kit";
import { PROJECT_SUSPEND_DEFAULT_KEY } from "./diff";
import { SUSPEND_TIMEOUT_DEFAULT_SECONDS } from "./inputs";
import type { ComputeInputs, ComputeOutputs } from "./types";

/** What a suspend timeout of 0 means in the project. */
export async function projectSuspendDefault(api: NeonClient, projectId: string): Promise<number> {
  const own = (await api.projects.get(projectId)).default_endpoint_settings?.suspend_timeout_seconds;
  return own !== undefined && own !== 0 ? own : SUSPEND_TIMEOUT_DEFAULT_SECONDS;
}

/** `olds` with the project's default beside them when comparing them with `news` needs it. */
export async function withProjectDefault(
  api: NeonClient,
  olds: Stated<ComputeOutputs>,
  news: Checked<ComputeInputs>,
): Promise<Stated<ComputeOutputs>> {
  // A number once known; at a preview it may still be UNKNOWN.
  const declared: unknown = news.suspendTimeoutSeconds;
  if (declared === undefined || declared === UNKNOWN || typeof olds[PROJECT_SUSPEND_DEFAULT_KEY] === "number")
    return olds;
  if ((olds.suspendTimeoutSeconds === 0) === (declared === 0)) return olds;
  const projectId = typeof olds.projectId === "string" ? olds.projectId : news.projectId;
  if (typeof projectId !== "string" || projectId === UNKNOWN) return olds;
  return { ...olds, [PROJECT_SUSPEND_DEFAULT_KEY]: await projectSuspendDefault(api, projectId) };
}
