/**
 * The ApiKey provider's methods against the emulator over real HTTP (no Pulumi engine).
 */
import * as http from "http";
import type { AddressInfo } from "net";
import type { EmulatorHandle } from "../../../emulator";
import { ApiError, type NeonClient } from "../../../provider/api";
import { boundResource, urnOf } from "../../support/provider";
import { raw } from "../client/helpers";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

let emulator: EmulatorHandle;
let admin: NeonClient;
let logs: string[] = [];
const tokens: string[] = [];

const urn = (name: string) => urnOf("ApiKey", name);

/** Runs check then create, as the engine does. */
async function createKey(name: string, inputs: Record<string, unknown>) {
  const checked = await impl.check({}, { name, __provider: "shim", __urn: urn(name), ...inputs });
  expect(checked.failures ?? []).toEqual([]);
  const created = await impl.create(checked.inputs);
  const outs = created.outs as Record<string, unknown>;
  if (typeof outs.token === "string") tokens.push(outs.token);
  return { id: created.id, outs };
}

/** The HTTP status of reading the seeded project with `token`. */
async function statusWith(token: unknown, projectId = emulator.seed.projectId): Promise<number> {
  return (await raw(emulator, "GET", `/projects/${projectId}`, undefined, String(token))).status;
}

function useKey(apiKey: string, apiUrl = emulator.url) {
  impl = boundResource("ApiKey", { apiKey, apiUrl }, (l) => logs.push(l));
}

let impl: ReturnType<typeof boundResource>;

withEmulator(
  { opMs: 40, seed: 11 },
  (e, client) => {
    emulator = e;
    admin = client;
  },
  { resetEach: true },
);

beforeEach(() => {
  logs = [];
  useKey(emulator.apiKey);
});

afterEach(() => {
  // Whatever a test did, no token may reach a log line.
  for (const t of tokens) expect(logs.join("\n")).not.toContain(t);
});

describe("key types", () => {
  it("creates a personal key whose token works, reads it back by id, and revokes it on delete", async () => {
    const { id, outs } = await createKey("personal", { name: "laptop" });
    expect(outs).toMatchObject({
      name: "laptop",
      keyId: Number(id),
      token: expect.stringMatching(/^.{64}$/),
      createdAt: expect.any(String),
      createdBy: expect.any(String),
      __provider: "shim",
    });
    expect(outs.orgId).toBeUndefined();
    expect(id).toBe(String(outs.keyId));
    expect(await statusWith(outs.token)).toBe(200);

    const read = await impl.read(id, outs);
    expect(read.id).toBe(id);
    // The token is only known at creation: read keeps the one in state. Usage shows up.
    expect(read.props).toMatchObject({
      token: outs.token,
      keyId: outs.keyId,
      lastUsedAt: expect.any(String),
    });
    expect(read.inputs).toEqual({ name: "laptop", __provider: "shim", __urn: urn("personal") });

    await impl.delete(id, outs);
    expect(await statusWith(outs.token)).toBe(401);
    expect(logs).toContain(`info: revoked personal API key ${id}`);
  });

  it("creates an organization key with orgId; its id names the organization", async () => {
    const orgId = emulator.seed.orgId;
    const { id, outs } = await createKey("org", { name: "org-wide", orgId });
    expect(id).toBe(`${orgId}/${outs.keyId}`);
    expect(outs).toMatchObject({ orgId, token: expect.any(String) });
    expect(outs.projectId).toBeUndefined();
    expect(await statusWith(outs.token)).toBe(200);
    expect((await admin.apiKeys.listOrg(orgId)).map((k) => k.id)).toContain(outs.keyId);

    expect((await impl.read(id, outs)).props).toMatchObject({ orgId, keyId: outs.keyId });
    await impl.delete(id, outs);
    expect(await statusWith(outs.token)).toBe(401);
  });

  it("creates a project-scoped key from projectId alone, finding the organization from the project", async () => {
    const { projectId, orgId, freeProjectId } = emulator.seed;
    const { id, outs } = await createKey("ci", { name: "ci", projectId });
    expect(outs).toMatchObject({ orgId, projectId, token: expect.any(String) });
    expect(id).toBe(`${orgId}/${outs.keyId}`);
    // Scoped: its own project, nothing else.
    expect(await statusWith(outs.token)).toBe(200);
    expect(await statusWith(outs.token, freeProjectId)).toBe(404);
    const listed = (await admin.apiKeys.listOrg(orgId)).find((k) => k.id === outs.keyId);
    expect(listed?.project_id).toBe(projectId);
    await impl.delete(id, outs);
    expect(await statusWith(outs.token)).toBe(401);
  });

  it("refuses a project-scoped key for a personal project, saying why", async () => {
    await expect(createKey("free", { name: "x", projectId: emulator.seed.freeProjectId })).rejects.toThrow(
      /belongs to no organization.*project-scoped keys exist only for projects of an organization/,
    );
  });
});

describe("rotation", () => {
  it("replaces on a rotationTrigger change without deleting first; both tokens work until the old one is revoked", async () => {
    const projectId = emulator.seed.projectId;
    const first = await createKey("ci", { name: "ci", projectId, rotationTrigger: "1" });
    const news = (
      await impl.check(first.outs, { name: "ci", projectId, rotationTrigger: "2", __provider: "shim" })
    ).inputs;
    const d = await impl.diff(first.id, first.outs, news);
    expect(d).toMatchObject({ changes: true, replaces: ["rotationTrigger"], deleteBeforeReplace: false });

    // The engine's order for a create-before-delete replacement.
    const second = await createKey("ci", { name: "ci", projectId, rotationTrigger: "2" });
    expect(second.outs.token).not.toBe(first.outs.token);
    expect(await statusWith(first.outs.token)).toBe(200);
    expect(await statusWith(second.outs.token)).toBe(200);
    await impl.delete(first.id, first.outs);
    expect(await statusWith(first.outs.token)).toBe(401);
    expect(await statusWith(second.outs.token)).toBe(200);
  });
});

describe("read and delete", () => {
  it("drops a key revoked out of band (read returns no id); deleting it again succeeds", async () => {
    const personal = await createKey("p", { name: "p" });
    const org = await createKey("o", { name: "o", orgId: emulator.seed.orgId });
    await admin.apiKeys.revoke(personal.outs.keyId as number);
    await admin.apiKeys.revokeOrg(emulator.seed.orgId, org.outs.keyId as number);
    expect(await impl.read(personal.id, personal.outs)).toEqual({});
    expect(await impl.read(org.id, org.outs)).toEqual({});
    await impl.delete(personal.id, personal.outs);
    await impl.delete(org.id, org.outs);
  });

  it("treats revoking a key the service does not know (404, confirmed by the list) as success", async () => {
    await expect(impl.delete("987654", {})).resolves.toBeUndefined();
    await expect(impl.delete(`${emulator.seed.orgId}/987654`, {})).resolves.toBeUndefined();
  });

  it("fails instead of dropping when the provider's key cannot list the organization's keys", async () => {
    const org = await createKey("o", { name: "o", orgId: emulator.seed.orgId });
    const project = await createKey("c", { name: "c", projectId: emulator.seed.projectId });
    useKey(String(project.outs.token));
    const err = await impl.read(org.id, org.outs).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toMatch(
      new RegExp(`cannot list the keys of organization ${emulator.seed.orgId}.*keeps it as it is`),
    );
    // A member's personal key may not list them either (admins only).
    useKey(emulator.createPersonalKey("member"));
    await expect(impl.read(org.id, org.outs)).rejects.toThrow(/cannot list the keys of organization/);
    await expect(impl.delete(org.id, org.outs)).rejects.toThrow(/revoked by administrators of/);
    useKey(emulator.apiKey);
    expect((await impl.read(org.id, org.outs)).id).toBe(org.id);
  });

  it("fails instead of dropping a personal key that belongs to another user", async () => {
    const mine = await createKey("p", { name: "p" });
    useKey(emulator.createPersonalKey("member"));
    await expect(impl.read(mine.id, mine.outs)).rejects.toThrow(/belongs to user .* keeps it as it is/);
    await expect(impl.delete(mine.id, mine.outs)).rejects.toThrow(/belongs to user/);
    expect(await statusWith(mine.outs.token)).toBe(200);
  });
});

describe("who may create what", () => {
  it("answers a member's organization key with 403 and says which key is needed", async () => {
    useKey(emulator.createPersonalKey("member"));
    const err = await createKey("o", { name: "o", orgId: emulator.seed.orgId }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).kind).toBe("forbidden");
    expect((err as ApiError).status).toBe(403);
    expect((err as ApiError).message).toMatch(
      /personal API key of an administrator of organization .*or set projectId for a project-scoped key/,
    );
    expect((await admin.apiKeys.listOrg(emulator.seed.orgId)).map((k) => k.name)).not.toContain("o");
  });

  it("lets a member create a project-scoped key", async () => {
    useKey(emulator.createPersonalKey("member"));
    const { outs } = await createKey("c", { name: "c", projectId: emulator.seed.projectId });
    expect(await statusWith(outs.token)).toBe(200);
  });

  it("refuses a personal key made with a project-scoped key, naming the key needed", async () => {
    const scoped = await createKey("c", { name: "c", projectId: emulator.seed.projectId });
    useKey(String(scoped.outs.token));
    await expect(createKey("p", { name: "p" })).rejects.toThrow(
      /Personal API keys are created with a personal API key/,
    );
  });
});

describe("lost answers", () => {
  it("does not send a create again whose answer was lost, and says to revoke the key it may have made", async () => {
    emulator.setFaults({ dropAfterCommitRate: 1 });
    try {
      const err = await createKey("p", { name: "lost-one" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).mayHaveReachedServer).toBe(true);
      expect((err as ApiError).message).toMatch(/If a key named "lost-one" was created .* revoke it/);
    } finally {
      emulator.setFaults({});
    }
    expect((await admin.apiKeys.list()).filter((k) => k.name === "lost-one")).toHaveLength(1);
  });
});

describe("scope check", () => {
  let proxy: http.Server;
  let proxyUrl: string;

  // Between the provider and the emulator: drops `project_id` from create answers, as a service
  // that ignored the requested scope would answer.
  beforeAll(async () => {
    const target = new URL(emulator.url);
    proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        const up = http.request(
          {
            host: target.hostname,
            port: target.port,
            path: req.url,
            method: req.method,
            headers: req.headers,
          },
          (r) => {
            const body: Buffer[] = [];
            r.on("data", (c) => body.push(c));
            r.on("end", () => {
              let text = Buffer.concat(body).toString();
              if (req.method === "POST" && /\/organizations\/[^/]+\/api_keys$/.test(req.url ?? "")) {
                const json = JSON.parse(text);
                delete json.project_id;
                text = JSON.stringify(json);
              }
              res.writeHead(r.statusCode ?? 500, { "content-type": "application/json" });
              res.end(text);
            });
          },
        );
        up.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${target.pathname}`;
  });
  afterAll(() => new Promise<void>((r) => proxy.close(() => r())));

  it("revokes a key whose scope is not the project asked for, and fails saying so", async () => {
    useKey(emulator.apiKey, proxyUrl);
    await expect(createKey("c", { name: "scoped", projectId: emulator.seed.projectId })).rejects.toThrow(
      /scoped it to no project \(organization-wide\), but project .* was asked for\. It was revoked/,
    );
    expect((await admin.apiKeys.listOrg(emulator.seed.orgId)).map((k) => k.name)).not.toContain("scoped");
  });
});

describe("import", () => {
  it("adopts a personal key by id without its token, and says so", async () => {
    const made = await admin.apiKeys.create("made-elsewhere");
    const { id, outs } = await createKey("imp", { name: "made-elsewhere", importId: String(made.id) });
    expect(id).toBe(String(made.id));
    expect(outs).toMatchObject({ keyId: made.id, name: "made-elsewhere" });
    expect(outs.token).toBeUndefined();
    expect(logs.join("\n")).toMatch(/token cannot be read back/);
    expect(logs.join("\n")).not.toContain(made.key);
  });

  it("adopts a project-scoped key as <orgId>/<keyId> and refuses a declaration that differs", async () => {
    const { orgId, projectId } = emulator.seed;
    const made = await admin.apiKeys.createOrg(orgId, "ci-old", projectId);
    await expect(createKey("imp", { name: "ci-old", importId: `${orgId}/${made.id}` })).rejects.toThrow(
      /declared inputs differ from the key \(projectId: declared none, actual/,
    );
    const { id, outs } = await createKey("imp", {
      name: "ci-old",
      projectId,
      importId: `${orgId}/${made.id}`,
    });
    expect(id).toBe(`${orgId}/${made.id}`);
    expect(outs).toMatchObject({ orgId, projectId, keyId: made.id });
    // Nothing to change afterwards.
    expect((await impl.diff(id, outs, { name: "ci-old", projectId, importId: id })).changes).toBe(false);
  });

  it("fails for a key that does not exist", async () => {
    await expect(createKey("imp", { name: "x", importId: "424242" })).rejects.toThrow(/lists no such key/);
  });
});
