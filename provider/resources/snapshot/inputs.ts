/**
 * Inputs of the `Snapshot` resource and `check`'s pure part: validation at `pulumi preview`. The
 * clock that judges `expiresAt` is passed in; the history window of `timestamp` is judged against the
 * project by `rules.ts`.
 */
import { z } from "zod";
import { checkAgainst, displayName, inputsChecked, inputSchema, type InputsCheck } from "../check";
import type { Bag, Stated } from "../kit";
import { apiId, branchIdRule } from "../branch-objects/objects";
import { normalizedTime } from "../branch/inputs";
import { SNAPSHOT_DEFINITION } from "./definition";
import type { SnapshotInputs } from "./types";

/** The longest name the provider gives a snapshot (the document sets none; a branch's is 256). */
export const MAX_SNAPSHOT_NAME = 256;

/** `"<projectId>/<snapshotId>"`. */
export const IMPORT_ID_PATTERN = /^([a-z0-9-]{1,60})\/([a-z0-9-]{1,60})$/;

const time = (example: string) =>
  z.iso.datetime({ offset: true, error: `must be an RFC 3339 time such as "${example}"` });

const inputsSchema = inputSchema(SNAPSHOT_DEFINITION, {
  projectId: apiId("a project id (1–60 lower-case letters, digits and dashes)"),
  branchId: branchIdRule('is required: the id of the branch to take the snapshot of ("br-…")'),
  name: displayName(MAX_SNAPSHOT_NAME),
  timestamp: time("2026-11-27T09:30:00Z"),
  lsn: z
    .string({ error: "must be a string" })
    .regex(/^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/, { error: 'must be a log position such as "0/1F2A3B8"' }),
  expiresAt: time("2026-12-01T00:00:00Z"),
  importId: z.string({ error: "must be a string" }).regex(IMPORT_ID_PATTERN, {
    error: 'must name an existing snapshot as "<projectId>/<snapshotId>"',
  }),
});

/**
 * Validates raw inputs and writes times as the service does (UTC, whole seconds) and `lsn` in upper
 * case, so that neither a check nor a diff depends on the spelling. `now` (the service's time) judges
 * `expiresAt` when it is new or changed from `olds`: an expiry that passed since it was set is no
 * reason to fail every later preview. Values not known yet are neither judged nor altered.
 */
export function checkInputs(
  news: Bag,
  now: number,
  olds: Stated<SnapshotInputs> = {},
): InputsCheck<SnapshotInputs> {
  const checked = checkAgainst(SNAPSHOT_DEFINITION, inputsSchema, news);
  const failures = [...checked.failures];
  const inputs: Bag = { ...news };
  const v = checked.value as Partial<SnapshotInputs>;
  if (!checked.parsed) return inputsChecked(inputs, failures);
  if (typeof v.timestamp === "string") inputs.timestamp = normalizedTime(v.timestamp);
  if (typeof v.lsn === "string") inputs.lsn = v.lsn.toUpperCase();
  if (v.timestamp !== undefined && v.lsn !== undefined) {
    failures.push({
      property: "lsn",
      reason: "lsn and timestamp both name a point of the branch's history; give one of them",
    });
  }
  if (typeof v.expiresAt === "string") {
    const at = Date.parse(v.expiresAt);
    inputs.expiresAt = normalizedTime(v.expiresAt);
    const unchanged = typeof olds.expiresAt === "string" && Date.parse(olds.expiresAt) === at;
    if (!unchanged && at <= now) {
      failures.push({
        property: "expiresAt",
        reason:
          `expiresAt ${v.expiresAt} is not in the future (the service's time is ${normalizedTime(new Date(now).toISOString())}); ` +
          "choose a later time, or remove it to keep the snapshot until it is deleted",
      });
    }
  }
  const imported = typeof v.importId === "string" ? IMPORT_ID_PATTERN.exec(v.importId) : null;
  if (imported && typeof v.projectId === "string" && imported[1] !== v.projectId) {
    failures.push({
      property: "importId",
      reason:
        `importId names a snapshot of project ${imported[1]} but projectId is ${v.projectId}; make them the ` +
        "same, or remove importId to take a new snapshot",
    });
  }
  return inputsChecked(inputs, failures);
}
