import type { Endpoint, Operation } from "../../../provider/api";
import { settledEndpoint } from "../../../provider/resources/compute/mapping";

const ep = {
  id: "ep-1",
  project_id: "p-1",
  branch_id: "br-1",
  type: "read_write",
  current_state: "init",
  pending_state: "active",
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
} as unknown as Endpoint;

const op = (action: string, updated_at: string): Operation =>
  ({
    id: `op-${action}`,
    project_id: "p-1",
    endpoint_id: "ep-1",
    action,
    status: "finished",
    failures_count: 0,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at,
    total_duration_ms: 3000,
  }) as Operation;

describe("settledEndpoint: the compute once the operations of its change finished", () => {
  it("a create's answer reaches its pending state, started when its start_compute ended", () => {
    const s = settledEndpoint(ep, [op("start_compute", "2026-01-01T00:00:03.000Z")]);
    expect(s.current_state).toBe("active");
    expect(s.pending_state).toBeUndefined();
    expect(s.started_at).toBe("2026-01-01T00:00:03.000Z");
    expect(s.last_active).toBe("2026-01-01T00:00:03.000Z");
    expect(s.updated_at).toBe("2026-01-01T00:00:03.000Z");
    expect(ep.pending_state).toBe("active"); // the answer itself is left alone
  });

  it("an update of an idle compute ends idle; its start time is kept", () => {
    const idle = {
      ...ep,
      current_state: "idle",
      pending_state: "idle",
      started_at: "2025-12-31T00:00:00.000Z",
    };
    const s = settledEndpoint(idle as Endpoint, [
      op("apply_config", "2026-01-01T00:00:02.000Z"),
      op("suspend_compute", "2026-01-01T00:00:05.000Z"),
    ]);
    expect(s.current_state).toBe("idle");
    expect(s.started_at).toBe("2025-12-31T00:00:00.000Z");
    expect(s.updated_at).toBe("2026-01-01T00:00:05.000Z");
  });

  it("no operations: the answer as it is (a disabled compute)", () => {
    const disabled = { ...ep, current_state: "idle", pending_state: undefined };
    expect(settledEndpoint(disabled as Endpoint, [])).toBe(disabled);
  });
});
