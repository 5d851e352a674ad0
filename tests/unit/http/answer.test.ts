import {
  ApiError,
  parseBody,
  ResponseShapeError,
  route,
  toApiError,
  toOutcome,
  type AttemptResult,
  type HttpMethod,
  type RequestSpec,
} from "../../../provider/http";

const KEY = "napi_unit_test_secret_0123456789abcdef";
const ctx = { requestId: "sent-1", attempts: 3, secrets: [KEY] };
const errCtx = { ...ctx, timeoutMs: 1234, retryDeadlineMs: 60_000 };

function spec<T = unknown>(
  method: HttpMethod = "POST",
  parse: RequestSpec<T>["parse"] = (d) => d as T,
): RequestSpec<T> {
  return {
    route: route(`${method} /projects/{project_id}/endpoints`, { project_id: "p/1" }),
    verb: "create",
    thing: "a compute in project p/1",
    parse,
  };
}

function thrown(f: () => unknown): ApiError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error("expected a throw");
}

describe("parseBody", () => {
  test("hands the body and the status to the call's parse", () => {
    const seen: unknown[] = [];
    const s = spec("GET", (d, status) => {
      seen.push([d, status]);
      return { got: d };
    });
    expect(parseBody(s, { status: 200, data: { a: 1 } }, ctx)).toEqual({ got: { a: 1 } });
    expect(seen).toEqual([[{ a: 1 }, 200]]);
  });

  test("a 204 or an empty body is undefined", () => {
    const s = spec("DELETE", (d) => d);
    expect(parseBody(s, { status: 204, data: { ignored: true } }, ctx)).toBeUndefined();
    expect(parseBody(s, { status: 200, data: "" }, ctx)).toBeUndefined();
  });

  test("a schema mismatch is an invalid_response error naming the route and every problem", () => {
    const s = spec("GET", () => {
      throw new ResponseShapeError(["endpoint.host: missing required field", "endpoint.id: expected string"]);
    });
    const err = thrown(() => parseBody(s, { status: 200, data: {} }, ctx));
    expect(err.kind).toBe("invalid_response");
    expect(err).toMatchObject({
      method: "GET",
      path: "/projects/p%2F1/endpoints",
      route: "GET /projects/{project_id}/endpoints",
      status: 200,
      requestId: "sent-1",
      attempts: 3,
      cause: { name: "ResponseShapeError" },
    });
    expect(err.apiMessage).toBe(
      "the answer to GET /projects/{project_id}/endpoints does not match the expected schema: " +
        "endpoint.host: missing required field; endpoint.id: expected string",
    );
    expect(err.message).toMatch(/^Failed to create a compute in project p\/1: the answer to GET /);
  });

  test("any other throw from parse is reported by its message; the answer's request id wins", () => {
    const s = spec("GET", () => {
      throw new TypeError(`cannot read ${KEY}`);
    });
    const err = thrown(() =>
      parseBody(s, { status: 201, data: {}, headers: { "x-request-id": "theirs-9" } }, ctx),
    );
    expect(err.kind).toBe("invalid_response");
    expect(err.requestId).toBe("theirs-9");
    expect(err.cause).toEqual({ name: "TypeError", message: "cannot read [REDACTED]" });
    expect(err.apiMessage).toMatch(/expected schema: cannot read \[REDACTED\]$/);
    expect(JSON.stringify(err)).not.toContain(KEY);
  });
});

describe("toApiError", () => {
  const answer = (status: number, data: unknown, extra: object = {}): AttemptResult => ({
    type: "response",
    res: { status, data, ...extra },
  });

  test("an answer gives the kind of its status and the API's code, message and request id", () => {
    const err = toApiError(
      spec(),
      answer(
        423,
        { code: "LOCKED", message: "busy", request_id: "rq-1" },
        { headers: { "x-request-id": "h" } },
      ),
      errCtx,
    );
    expect(err).toMatchObject({
      kind: "locked",
      status: 423,
      code: "LOCKED",
      apiMessage: "busy",
      requestId: "rq-1",
      method: "POST",
      path: "/projects/p%2F1/endpoints",
      route: "POST /projects/{project_id}/endpoints",
      attempts: 3,
      mayHaveReachedServer: false,
      deadlineExceeded: false,
    });
  });

  test("without a usable body: the status text, else the status; the request id from the header, else ours", () => {
    const a = toApiError(
      spec(),
      answer(404, "", { statusText: "Not Found", headers: { "x-request-id": "h-1" } }),
      errCtx,
    );
    expect(a.apiMessage).toBe("Not Found");
    expect(a.requestId).toBe("h-1");
    expect(a.code).toBeUndefined();
    const b = toApiError(spec(), answer(418, { code: "" }), errCtx);
    expect(b.kind).toBe("invalid");
    expect(b.apiMessage).toBe("HTTP 418");
    expect(b.requestId).toBe("sent-1");
    expect(b.code).toBeUndefined();
  });

  test("a text body is the message, trimmed and cut at 500 characters, with the key removed", () => {
    const a = toApiError(spec(), answer(502, `  bad gateway ${KEY}\n`), errCtx);
    expect(a.kind).toBe("server");
    expect(a.apiMessage).toBe("bad gateway [REDACTED]");
    const b = toApiError(spec(), answer(500, "x".repeat(600)), errCtx);
    expect(b.apiMessage).toHaveLength(500);
  });

  test("no answer: timeout with the request timeout, or network with the cause's code", () => {
    const cause = { name: "AxiosError", code: "ETIMEDOUT", message: "timeout" };
    const t = toApiError(spec(), { type: "network", timedOut: true, phase: "sent", cause }, errCtx);
    expect(t).toMatchObject({
      kind: "timeout",
      apiMessage: "no answer within 1234 ms",
      requestId: "sent-1",
      cause,
    });
    expect(t.status).toBeUndefined();
    const reset = { name: "AxiosError", code: "ECONNRESET", message: "socket hang up" };
    const n = toApiError(spec(), { type: "network", timedOut: false, phase: "sent", cause: reset }, errCtx);
    expect(n).toMatchObject({ kind: "network", apiMessage: "the connection failed (ECONNRESET)" });
    const bare = { name: "Error", message: "gone" };
    const m = toApiError(spec(), { type: "network", timedOut: false, phase: "sent", cause: bare }, errCtx);
    expect(m.apiMessage).toBe("the connection failed (gone)");
  });

  test("mayHaveReachedServer only when the retry decision says so, and never for a GET", () => {
    const cut: AttemptResult = {
      type: "network",
      timedOut: false,
      phase: "sent",
      cause: { name: "E", message: "x" },
    };
    expect(
      toApiError(spec("POST"), cut, { ...errCtx, mayHaveReachedServer: true }).mayHaveReachedServer,
    ).toBe(true);
    expect(
      toApiError(spec("DELETE"), cut, { ...errCtx, mayHaveReachedServer: true }).mayHaveReachedServer,
    ).toBe(true);
    expect(toApiError(spec("GET"), cut, { ...errCtx, mayHaveReachedServer: true }).mayHaveReachedServer).toBe(
      false,
    );
    expect(toApiError(spec("PATCH"), cut, errCtx).mayHaveReachedServer).toBe(false);
  });

  test("a passed retry deadline is kept and named in the message", () => {
    const err = toApiError(spec(), answer(423, { message: "busy" }), { ...errCtx, deadlineExceeded: true });
    expect(err.deadlineExceeded).toBe(true);
    expect(err.message).toMatch(/Gave up retrying: the retry deadline of 60 s passed\./);
  });
});

describe("toOutcome", () => {
  test("no answer keeps its phase and whether it timed out", () => {
    const cause = { name: "E", message: "x" };
    expect(toOutcome({ type: "network", timedOut: true, phase: "sent", cause }, 0)).toEqual({
      type: "network",
      phase: "sent",
      timedOut: true,
    });
  });

  test("an answer gives its status and its Retry-After in ms (seconds or a date from now)", () => {
    expect(
      toOutcome({ type: "response", res: { status: 429, data: "", headers: { "retry-after": "2" } } }, 0),
    ).toEqual({
      type: "response",
      status: 429,
      retryAfterMs: 2000,
      notReady: false,
    });
    const date = new Date(10_000).toUTCString();
    const o = toOutcome(
      { type: "response", res: { status: 503, data: "", headers: { "retry-after": date } } },
      4_000,
    );
    expect(o).toMatchObject({ retryAfterMs: 6_000 });
  });

  test("only a 422 whose message says not ready is notReady", () => {
    const out = (status: number, message: string) =>
      toOutcome({ type: "response", res: { status, data: { message } } }, 0);
    expect(out(422, "Branch is not ready yet")).toMatchObject({ notReady: true });
    expect(out(422, "invalid name")).toMatchObject({ notReady: false });
    expect(out(400, "not ready")).toMatchObject({ notReady: false });
  });
});
