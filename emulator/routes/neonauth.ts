/**
 * Neon Auth of a branch (`/projects/{project_id}/branches/{branch_id}/auth`, tag `Auth`, Beta): the
 * integration (enable, read, disable) and its settings — trusted domains, OAuth providers, email and
 * password sign-in, localhost — and the auth service it runs at its `base_url`: the JWKS at its
 * `jwks_url`, and email sign-up and sign-in that answer a token signed by the key the JWKS publishes
 * (what the Data API checks). Nothing here starts an operation: the document's answers carry none.
 *
 * What the document does not say, the emulator chooses, and the README lists: a second enable on a
 * branch is refused 409; the settings routes of a branch without Neon Auth answer 404; a new
 * integration allows localhost, has email and password sign-in enabled and no OAuth provider; an OAuth
 * provider's `client_secret` is kept but never answered; sign-up and sign-in answer the JWT itself as
 * `token` (no session).
 *
 * The whole resource: its records (one integration per branch, its users; the state file's `neon_auth`
 * and `neon_auth_users`), its request bodies and its routes. Nothing is seeded.
 */
import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { collection, resource } from "../collection";
import { originOf, type Ctx, type ServiceRequest } from "../context";
import { ApiFault, Codes, badRequest, conflict, notFound } from "../errors";
import { iso, newToken } from "../ids";
import { jwksOf, newSigningKey, signJwt, SigningKeySchema, type SigningKey } from "../jwt";
import { parseBody } from "../validation";
import type { Store } from "../store";

const PROVIDERS = ["mock", "stack", "better_auth"] as const;
const OAUTH_IDS = ["google", "github", "microsoft", "vercel"] as const;

/** `NeonAuthEmailAndPasswordConfig`, with the emulator's defaults for a new integration. */
const EmailAndPasswordSchema = z.object({
  enabled: z.boolean(),
  email_verification_method: z.enum(["link", "otp"]),
  require_email_verification: z.boolean(),
  auto_sign_in_after_verification: z.boolean(),
  send_verification_email_on_sign_up: z.boolean(),
  send_verification_email_on_sign_in: z.boolean(),
  disable_sign_up: z.boolean(),
});
const EMAIL_AND_PASSWORD_DEFAULTS: z.infer<typeof EmailAndPasswordSchema> = {
  enabled: true,
  email_verification_method: "otp",
  require_email_verification: false,
  auto_sign_in_after_verification: true,
  send_verification_email_on_sign_up: false,
  send_verification_email_on_sign_in: false,
  disable_sign_up: false,
};

const OauthProviderSchema = z.object({
  id: z.enum(OAUTH_IDS),
  type: z.enum(["standard", "shared"]),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  microsoft_tenant_id: z.string().optional(),
});
type OauthProvider = z.infer<typeof OauthProviderSchema>;

/** A branch's Neon Auth: what `GET …/auth` answers, its keys, its settings and its signing key. */
export const NeonAuthSchema = z.object({
  auth_provider: z.enum(PROVIDERS),
  auth_provider_project_id: z.string(),
  branch_id: z.string(),
  db_name: z.string(),
  created_at: z.string(),
  owned_by: z.enum(["user", "neon"]),
  jwks_url: z.string(),
  base_url: z.string(),
  pub_client_key: z.string(),
  secret_server_key: z.string(),
  allow_localhost: z.boolean(),
  email_and_password: EmailAndPasswordSchema,
  oauth_providers: z.array(OauthProviderSchema),
  domains: z.array(z.string()),
  signing_key: SigningKeySchema,
});
export type NeonAuth = z.infer<typeof NeonAuthSchema>;

/** A user of a branch's Neon Auth (its `neon_auth` schema, on the service). */
const UserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  password_hash: z.string(),
  created_at: z.string(),
});
type User = z.infer<typeof UserSchema>;

/** `EnableNeonAuthIntegrationRequest`. */
const EnableBody = z
  .object({ auth_provider: z.enum(PROVIDERS), database_name: z.string().min(1).optional() })
  .strict();
const DisableBody = z.object({ delete_data: z.boolean().optional() }).strict().optional();
const uri = z.string().url("must be a URI");
const AddDomainBody = z.object({ domain: uri, auth_provider: z.enum(PROVIDERS) }).strict();
const DeleteDomainsBody = z
  .object({ auth_provider: z.enum(PROVIDERS), domains: z.array(z.object({ domain: uri }).strict()) })
  .strict();
const AddOauthBody = z
  .object({
    id: z.enum(OAUTH_IDS),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    microsoft_tenant_id: z.string().optional(),
  })
  .strict();
const UpdateOauthBody = AddOauthBody.omit({ id: true });
const EmailAndPasswordUpdateBody = EmailAndPasswordSchema.partial().strict();
const AllowLocalhostBody = z.object({ allow_localhost: z.boolean() }).strict();
const SignUpBody = z.object({
  email: z.string().email("must be an email address"),
  password: z.string().min(8, "must be at least 8 characters"),
  name: z.string().default(""),
});
const SignInBody = z.object({ email: z.string(), password: z.string() });

/** The one record of a branch (its id in the collection). */
const ID = "auth";

export const neonAuths = collection({
  name: "neon_auth",
  noun: "Neon Auth",
  scope: "branch",
  schema: NeonAuthSchema.extend({ id: z.literal(ID) }),
  id: (r) => r.id,
});

const users = collection({
  name: "neon_auth_users",
  noun: "Neon Auth user",
  scope: "branch",
  schema: UserSchema,
  id: (u) => u.id,
});

/** The integration as `GET …/auth` answers it (`NeonAuthIntegration`): no keys, no settings. */
const integration = (a: NeonAuth) => ({
  auth_provider: a.auth_provider,
  auth_provider_project_id: a.auth_provider_project_id,
  branch_id: a.branch_id,
  db_name: a.db_name,
  created_at: a.created_at,
  owned_by: a.owned_by,
  jwks_url: a.jwks_url,
  base_url: a.base_url,
});

/** An OAuth provider as answered: never its secret. */
const shown = (p: OauthProvider) => ({
  id: p.id,
  type: p.type,
  ...(p.client_id !== undefined ? { client_id: p.client_id } : {}),
});

/** The branch's Neon Auth, for a settings route; 404 when the branch has none. */
function authOf(ctx: Ctx, what: string) {
  const scoped = neonAuths.at(ctx, what);
  const a = scoped.get(ID);
  if (!a) throw notFound(`Failed to ${what}: Neon Auth is not enabled on branch ${scoped.branch!.id}`);
  return { scoped, a };
}

/** A branch's Neon Auth (the Data API checks tokens against its key). */
export function neonAuthOf(store: Store, branchId: string): NeonAuth | undefined {
  return neonAuths.in(store).get(branchId, ID);
}

const hashPassword = (password: string): string => {
  const salt = randomBytes(16);
  return `${salt.toString("base64url")}.${scryptSync(password, salt, 32).toString("base64url")}`;
};
const passwordMatches = (password: string, stored: string): boolean => {
  const [salt, hash] = stored.split(".");
  const got = scryptSync(password, Buffer.from(salt, "base64url"), 32);
  const want = Buffer.from(hash, "base64url");
  return got.length === want.length && timingSafeEqual(got, want);
};

/** A signed token for a user, valid 15 minutes on the emulator's clock. */
function tokenFor(key: SigningKey, a: NeonAuth, u: User, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  return signJwt(key, {
    sub: u.id,
    email: u.email,
    name: u.name,
    role: "authenticated",
    iss: a.base_url,
    aud: a.base_url,
    iat,
    exp: iat + 900,
  });
}

export const neonAuthResource = resource({
  name: "Neon Auth",
  collections: [neonAuths, users],
  routes(r) {
    const base = "/projects/:project_id/branches/:branch_id/auth";

    r.get(base, (ctx) => {
      const { a } = authOf(ctx, "get Neon Auth");
      return { body: integration(a) };
    });

    r.post(base, (ctx) => {
      const what = "enable Neon Auth";
      const scoped = neonAuths.at(ctx, what);
      const branch = scoped.branch!;
      const body = ctx.body(EnableBody, what);
      ctx.ready(branch);
      if (scoped.get(ID))
        throw conflict(`Failed to ${what}: Neon Auth is already enabled on branch ${branch.id}`);
      const dbs = ctx.store.databasesOf(branch.id);
      const db = body.database_name ?? dbs[0]?.name;
      if (!db || !dbs.some((d) => d.name === db)) {
        throw notFound(`Failed to ${what}: database ${db ?? "(none)"} not found on branch ${branch.id}`);
      }
      const baseUrl = `${originOf(ctx.req)}/neon-auth/${scoped.project.id}/${branch.id}/${encodeURIComponent(db)}/auth`;
      const a: NeonAuth = {
        auth_provider: body.auth_provider,
        auth_provider_project_id: ctx.store.rngIds.uuid(),
        branch_id: branch.id,
        db_name: db,
        created_at: iso(ctx.now()),
        owned_by: "neon",
        jwks_url: `${baseUrl}/.well-known/jwks.json`,
        base_url: baseUrl,
        pub_client_key: `pck_${newToken()}`,
        secret_server_key: `ssk_${newToken()}`,
        allow_localhost: true,
        email_and_password: { ...EMAIL_AND_PASSWORD_DEFAULTS },
        oauth_providers: [],
        domains: [],
        signing_key: newSigningKey(),
      };
      scoped.add({ ...a, id: ID });
      return {
        status: 201,
        body: {
          auth_provider: a.auth_provider,
          auth_provider_project_id: a.auth_provider_project_id,
          pub_client_key: a.pub_client_key,
          secret_server_key: a.secret_server_key,
          jwks_url: a.jwks_url,
          schema_name: "neon_auth",
          table_name: "users_sync",
          base_url: a.base_url,
        },
      };
    });

    r.delete(base, (ctx) => {
      const what = "disable Neon Auth";
      const { scoped } = authOf(ctx, what);
      const body = ctx.body(DisableBody, what);
      scoped.remove(ID);
      // The users live in the database's `neon_auth` schema: they go only with its data.
      if (body?.delete_data) users.in(ctx.store).drop(scoped.branch!.id);
      return { body: undefined };
    });

    r.get(`${base}/domains`, (ctx) => {
      const { a } = authOf(ctx, "list trusted domains");
      return { body: { domains: a.domains.map((domain) => ({ domain, auth_provider: a.auth_provider })) } };
    });

    r.post(`${base}/domains`, (ctx) => {
      const what = "add a trusted domain";
      const { scoped, a } = authOf(ctx, what);
      const { domain } = ctx.body(AddDomainBody, what);
      if (a.domains.includes(domain)) throw conflict(`Failed to ${what}: ${domain} is already trusted`);
      scoped.replace({ ...a, id: ID, domains: [...a.domains, domain] });
      return { status: 201, body: undefined };
    });

    r.delete(`${base}/domains`, (ctx) => {
      const what = "delete trusted domains";
      const { scoped, a } = authOf(ctx, what);
      const gone = new Set(ctx.body(DeleteDomainsBody, what).domains.map((d) => d.domain));
      scoped.replace({ ...a, id: ID, domains: a.domains.filter((d) => !gone.has(d)) });
      return { body: undefined };
    });

    r.get(`${base}/oauth_providers`, (ctx) => {
      const { a } = authOf(ctx, "list OAuth providers");
      return { body: { providers: a.oauth_providers.map(shown) } };
    });

    r.post(`${base}/oauth_providers`, (ctx) => {
      const what = "add an OAuth provider";
      const { scoped, a } = authOf(ctx, what);
      const body = ctx.body(AddOauthBody, what);
      if (a.oauth_providers.some((p) => p.id === body.id)) {
        throw conflict(`Failed to ${what}: OAuth provider ${body.id} is already configured`);
      }
      // Without the app's own credentials, the provider uses Neon's shared ones.
      const p: OauthProvider = { ...body, type: body.client_id ? "standard" : "shared" };
      scoped.replace({ ...a, id: ID, oauth_providers: [...a.oauth_providers, p] });
      return { body: shown(p) };
    });

    r.patch(`${base}/oauth_providers/:oauth_provider_id`, (ctx) => {
      const what = "update an OAuth provider";
      const { scoped, a } = authOf(ctx, what);
      const id = ctx.params().oauth_provider_id;
      const old = a.oauth_providers.find((p) => p.id === id);
      if (!old) throw notFound(`Failed to ${what}: OAuth provider ${id} is not configured`);
      const merged = { ...old, ...ctx.body(UpdateOauthBody, what) };
      const p: OauthProvider = { ...merged, type: merged.client_id ? "standard" : "shared" };
      scoped.replace({ ...a, id: ID, oauth_providers: a.oauth_providers.map((x) => (x.id === id ? p : x)) });
      return { body: shown(p) };
    });

    r.delete(`${base}/oauth_providers/:oauth_provider_id`, (ctx) => {
      const what = "delete an OAuth provider";
      const { scoped, a } = authOf(ctx, what);
      const id = ctx.params().oauth_provider_id;
      if (!a.oauth_providers.some((p) => p.id === id)) {
        throw notFound(`Failed to ${what}: OAuth provider ${id} is not configured`);
      }
      scoped.replace({ ...a, id: ID, oauth_providers: a.oauth_providers.filter((p) => p.id !== id) });
      return { body: undefined };
    });

    r.get(`${base}/email_and_password`, (ctx) => {
      const { a } = authOf(ctx, "get email and password configuration");
      return { body: a.email_and_password };
    });

    r.patch(`${base}/email_and_password`, (ctx) => {
      const what = "update email and password configuration";
      const { scoped, a } = authOf(ctx, what);
      const email_and_password = { ...a.email_and_password, ...ctx.body(EmailAndPasswordUpdateBody, what) };
      scoped.replace({ ...a, id: ID, email_and_password });
      return { body: email_and_password };
    });

    r.get(`${base}/allow_localhost`, (ctx) => {
      const { a } = authOf(ctx, "get localhost setting");
      return { body: { allow_localhost: a.allow_localhost } };
    });

    r.patch(`${base}/allow_localhost`, (ctx) => {
      const what = "update localhost setting";
      const { scoped, a } = authOf(ctx, what);
      const { allow_localhost } = ctx.body(AllowLocalhostBody, what);
      scoped.replace({ ...a, id: ID, allow_localhost });
      return { body: { allow_localhost } };
    });
  },

  service(s) {
    const base = "/neon-auth/:project_id/:branch_id/:database/auth";
    const live = (req: ServiceRequest): NeonAuth => {
      const { project_id, branch_id } = req.params;
      const a = neonAuthOf(req.emu.store, branch_id);
      if (!a || !req.emu.store.branch(project_id, branch_id)) {
        throw notFound(`Neon Auth is not enabled on branch ${branch_id}`);
      }
      return a;
    };
    const signedIn = (req: ServiceRequest, a: NeonAuth, u: User) => ({
      body: {
        token: tokenFor(a.signing_key, a, u, req.emu.store.now()),
        user: { id: u.id, email: u.email, name: u.name, createdAt: u.created_at },
      },
    });

    s.get(`${base}/.well-known/jwks.json`, (req) => ({ body: jwksOf(live(req).signing_key) }));

    s.post(`${base}/sign-up/email`, (req) => {
      const a = live(req);
      const what = "sign up";
      if (!a.email_and_password.enabled || a.email_and_password.disable_sign_up) {
        throw badRequest(`Failed to ${what}: email and password sign-up is disabled`);
      }
      const body = parseBody(SignUpBody, req.body, what);
      const branchUsers = users.in(req.emu.store);
      if (branchUsers.of(a.branch_id).some((u) => u.email.toLowerCase() === body.email.toLowerCase())) {
        throw new ApiFault(
          422,
          Codes.unprocessable,
          `Failed to ${what}: a user with this email already exists`,
        );
      }
      const u: User = {
        id: req.emu.store.rngIds.uuid(),
        email: body.email,
        name: body.name,
        password_hash: hashPassword(body.password),
        created_at: iso(req.emu.store.now()),
      };
      branchUsers.add(a.branch_id, u);
      return signedIn(req, a, u);
    });

    s.post(`${base}/sign-in/email`, (req) => {
      const a = live(req);
      const body = parseBody(SignInBody, req.body, "sign in");
      const u = users
        .in(req.emu.store)
        .of(a.branch_id)
        .find((x) => x.email.toLowerCase() === body.email.toLowerCase());
      if (!a.email_and_password.enabled || !u || !passwordMatches(body.password, u.password_hash)) {
        throw new ApiFault(401, Codes.unauthorized, "Failed to sign in: invalid email or password");
      }
      return signedIn(req, a, u);
    });
  },
});
