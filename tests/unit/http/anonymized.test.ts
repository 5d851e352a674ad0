/**
 * The anonymized-branch calls beyond their wire (pinned in `api-requests.test.ts`): the phases a
 * waiter reads from a status, the wait itself on a scripted transport and a fake clock, and that a
 * rule's values (every field sensitive in the document) never reach an error's text.
 */
import type { AxiosAdapter } from "axios";
import { anonymizationPhase, buildClient, type AnonymizedStatus } from "../../../provider/api";
import { FakeClock } from "../../support/fake-clock";
import { httpOver } from "../../support/scripted-http";

const status = (state: string, extra: Partial<AnonymizedStatus> = {}): AnonymizedStatus => ({
  project_id: "p-1",
  branch_id: "br-1",
  state,
  created_at: "2026-11-29T10:00:00Z",
  updated_at: "2026-11-29T10:00:00Z",
  ...extra,
});

/** A client whose every answer is the next of `bodies` (the last one repeats). */
function scripted(bodies: unknown[]) {
  const clock = new FakeClock();
  let n = 0;
  const adapter: AxiosAdapter = async (config) => ({
    data: bodies[Math.min(n++, bodies.length - 1)],
    status: 200,
    statusText: "OK",
    headers: {},
    config,
    request: {},
  });
  const http = httpOver(adapter, clock);
  return { api: buildClient(http), clock, reads: () => n };
}

describe("anonymizationPhase", () => {
  test.each([
    ["created", false, "waiting"],
    ["anonymizing", false, "waiting"],
    ["initialized", true, "waiting"],
    ["initialized", false, "anonymized"],
    ["anonymized", true, "anonymized"],
    ["error", true, "failed"],
    ["initialization_error", false, "failed"],
    ["a-state-the-document-does-not-name", true, "failed"],
  ])("%s (run asked: %s) is %s", (state, asked, phase) => {
    expect(anonymizationPhase(state, asked)).toBe(phase);
  });
});

describe("waitForRun", () => {
  test("reads the status until the run has ended, waiting longer each time", async () => {
    const { api, clock, reads } = scripted([
      status("created"),
      status("initialized"),
      status("anonymizing"),
      status("anonymized", { last_run: { masked_columns: 2 } }),
    ]);
    const seen: string[] = [];
    const end = await clock.run(
      api.anonymized.waitForRun("p-1", "br-1", { onStatus: (s) => seen.push(s.state) }),
    );
    expect(end.state).toBe("anonymized");
    expect(seen).toEqual(["created", "initialized", "anonymizing", "anonymized"]);
    expect(reads()).toBe(4);
    expect(clock.sleeps).toEqual([1000, 2000, 4000]);
  });

  test("a failed run is returned, not thrown", async () => {
    const { api, clock } = scripted([
      status("anonymizing"),
      status("error", { failed_at: "2026-11-29T10:01:00Z" }),
    ]);
    expect((await clock.run(api.anonymized.waitForRun("p-1", "br-1"))).state).toBe("error");
  });

  test("a run that outlasts the timeout fails the wait, naming the state", async () => {
    const { api, clock } = scripted([status("anonymizing")]);
    await expect(clock.run(api.anonymized.waitForRun("p-1", "br-1", { timeoutMs: 60_000 }))).rejects.toThrow(
      /^Failed to wait for the anonymization of anonymized branch br-1 of project p-1: it was still anonymizing after 60 s\./,
    );
  });
});

test("an answer that does not match the document names the field, never a rule's values", async () => {
  const { api, clock } = scripted([
    {
      masking_rules: [
        {
          database_name: "crm",
          schema_name: "sales",
          table_name: "customers",
          column_name: 7,
          masking_value: "'x'",
        },
      ],
    },
  ]);
  const err = await clock.run(api.anonymized.getRules("p-1", "br-1")).catch((e: Error) => e);
  expect(err).toBeInstanceOf(Error);
  const text = `${(err as Error).message} ${JSON.stringify(err)}`;
  expect(text).toContain("masking_rules.0.column_name");
  expect(text).not.toMatch(/crm|sales|customers/);
});
