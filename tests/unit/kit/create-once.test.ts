/**
 * createOnce (provider/resources/steps.ts): a create whose answer is lost is looked up before
 * anything is sent again; the resend's 409 or lost answer is looked up too; a refusal goes through
 * the resource's own hook.
 */
import { ApiError } from "../../../provider/api";
import { createOnce, keptInStack, splitProjectScoped, waitingLine } from "../../../provider/resources/kit";
import { OperationError } from "../../../provider/operations";

const lost = () =>
  new ApiError({
    kind: "network",
    method: "POST",
    path: "/x",
    verb: "create",
    thing: "object",
    apiMessage: "socket hang up",
    mayHaveReachedServer: true,
  });
const conflict = () =>
  new ApiError({
    kind: "conflict",
    method: "POST",
    path: "/x",
    verb: "create",
    thing: "object",
    apiMessage: "already exists",
    status: 409,
  });
const refused = () =>
  new ApiError({
    kind: "invalid",
    method: "POST",
    path: "/x",
    verb: "create",
    thing: "object",
    apiMessage: "bad",
    status: 400,
  });

/** A create whose sends answer as `answers` say (an error is thrown), over a store `find` reads. */
function scenario(answers: ("ok" | "lost-made" | "lost-not-made" | "conflict" | "refused")[]) {
  const store: string[] = [];
  const sent: string[] = [];
  const lines: string[] = [];
  let n = 0;
  const result = createOnce<string, string>({
    log: { info: (m) => lines.push(m), progress: () => undefined, warn: () => undefined },
    send: async () => {
      const a = answers[n++];
      sent.push(a);
      if (a === "ok" || a === "lost-made") store.push(`obj-${n}`);
      if (a === "ok") return `sent:obj-${n}`;
      if (a === "conflict") throw conflict();
      if (a === "refused") throw refused();
      throw lost();
    },
    find: async () => store[0],
    finish: async (found) => `found:${found}`,
    describe: (found) => `object ${found}`,
    refused: async (err) => {
      throw new Error(`refused by the resource: ${(err as Error).message.slice(0, 20)}`);
    },
  });
  return { result, sent, lines, store };
}

describe("createOnce", () => {
  it("returns the answer of a create that arrived, sending once", async () => {
    const s = scenario(["ok"]);
    await expect(s.result).resolves.toBe("sent:obj-1");
    expect(s.sent).toEqual(["ok"]);
  });

  it("after a lost answer, takes the object it made without sending again", async () => {
    const s = scenario(["lost-made"]);
    await expect(s.result).resolves.toBe("found:obj-1");
    expect(s.sent).toEqual(["lost-made"]);
    expect(s.lines).toEqual([
      "the answer to the create request was lost; found object obj-1, which it created",
    ]);
  });

  it("after a lost answer that made nothing, sends once more", async () => {
    const s = scenario(["lost-not-made", "ok"]);
    await expect(s.result).resolves.toBe("sent:obj-2");
    expect(s.lines).toEqual([
      "the answer to the create request was lost and nothing was created; sending it again",
    ]);
  });

  it("looks up a resend that loses its answer too, and one that answers 409", async () => {
    const twiceLost = scenario(["lost-not-made", "lost-made"]);
    await expect(twiceLost.result).resolves.toBe("found:obj-2");
    expect(twiceLost.sent).toHaveLength(2);
    const s = scenario(["lost-not-made", "conflict"]);
    // Nothing holds the name after the 409: the 409 is the answer.
    await expect(s.result).rejects.toThrow("already exists");
    expect(s.sent).toHaveLength(2);
  });

  it("never sends a third time", async () => {
    const s = scenario(["lost-not-made", "lost-not-made", "ok"]);
    await expect(s.result).rejects.toThrow("socket hang up");
    expect(s.sent).toHaveLength(2);
  });

  it("hands an error that created nothing to the resource's refusal", async () => {
    const s = scenario(["refused"]);
    await expect(s.result).rejects.toThrow("refused by the resource");
    expect(s.sent).toEqual(["refused"]);
  });
});

describe("what a create that did not finish says", () => {
  it("an operation that ended in error: the next `up` is the remedy, not the console", () => {
    const err = new OperationError({
      reason: "error",
      projectId: "p-1",
      operationId: "op-1",
      action: "create_branch",
      status: "error",
      failuresCount: 1,
      operationError: "storage unavailable",
      elapsedMs: 1200,
    });
    expect(err.message).toMatch(/Neon console, fix the cause/);
    const kept = keptInStack('branch "pr-1" (br-1)', err, "br-1", {});
    expect(kept.message).toBe(
      'Failed to finish creating branch "pr-1" (br-1): Failed to wait for operation op-1 (create_branch) of ' +
        "project p-1: it ended in error: storage unavailable (status error, failures_count 1, after 1.2 s). " +
        "It is kept in the stack; run `pulumi up` again to retry, or `pulumi destroy` to remove it.",
    );
  });

  it("a progress line names the operations it waits for, and no wait when there are none", () => {
    expect(waitingLine("created role app", [{ action: "apply_config" }])).toBe(
      "created role app; waiting for apply_config",
    );
    expect(waitingLine("took over role app", [], " (the old password works until then)")).toBe(
      "took over role app",
    );
  });
});

describe("a project-scoped resource id", () => {
  it("splits into the project and the part, and any other shape names the remedy", () => {
    expect(splitProjectScoped("shiny-wind-1/snap-a", "snapshot", "snapshotId")).toEqual([
      "shiny-wind-1",
      "snap-a",
    ]);
    for (const bad of ["snap-a", "/snap-a", "shiny-wind-1/", "p/b/c"]) {
      expect(() => splitProjectScoped(bad, "snapshot", "snapshotId")).toThrow(
        `Failed to read snapshot "${bad}": the id is not "<projectId>/<snapshotId>". Remove the resource from the stack with \`pulumi state delete\` and import the snapshot with importId.`,
      );
    }
  });
});
