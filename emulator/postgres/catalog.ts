/**
 * The roles and databases a branch's records say it has, and the SQL that makes a running server
 * hold exactly those. Databases carry their branch and API id in a comment: a rename or an owner change
 * made while the branch was stopped is found again by id; a database of the parent's (a branch's copy:
 * new ids, the same names) is matched by name; one this branch deleted is dropped even when a new one
 * took its name. Only what the emulator made is ever dropped: a role or database made with SQL (by a
 * migration) is the application's. Passwords reach the server only as SCRAM verifiers, so no password is in any SQL text
 * a server could log. Every name is quoted as an identifier or a literal, the catalog is read as JSON
 * and the SQL has no psql meta-command, so no name can run anything but the statement it is part of.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";

export interface WantedRole {
  name: string;
  login: boolean;
  /** The password that logs the role in now (during a reset: the one the reset replaces). */
  password?: string;
}

export interface WantedDatabase {
  id: number;
  name: string;
  owner: string;
}

export interface WantedCatalog {
  branchId: string;
  roles: WantedRole[];
  databases: WantedDatabase[];
  /** Every database id of the branch's records, reserved names included (never dropped). */
  ids: Set<number>;
  /**
   * The current name of another branch's database (its tag): a copy of a parent whose database was
   * renamed while it was stopped still holds the old name.
   */
  nameOf(branchId: string, id: number): string | undefined;
  /** What the catalog depends on, without any password in clear. */
  fingerprint: unknown;
}

export interface CurrentCatalog {
  /** `managed`: the emulator made it (a role made with SQL is the application's, never dropped). */
  roles: { name: string; login: boolean; managed: boolean }[];
  /** `branchId`/`id`: from the tag the emulator gave the database (none for one it did not make). */
  databases: { name: string; owner: string; branchId?: string; id?: number }[];
}

/** Roles and databases of the server itself, which the records never touch. */
const SYSTEM_ROLES = new Set(["cloud_admin", "neon_superuser"]);
const SYSTEM_DATABASES = new Set(["postgres", "template0", "template1"]);
const isSystemRole = (name: string) => SYSTEM_ROLES.has(name) || name.startsWith("pg_");
const TAG = /^neon-emulator database ([a-z0-9-]+)\/(\d+)$/;
const ROLE_TAG = "neon-emulator role";

/** A catalog from a branch's records, with a fingerprint that changes when any of it does. */
export function wantedCatalog(
  branchId: string,
  roles: WantedRole[],
  databases: WantedDatabase[],
  nameOf: (branchId: string, id: number) => string | undefined = () => undefined,
): WantedCatalog {
  const digest = (s: string | undefined) =>
    s === undefined ? null : createHash("sha256").update(s).digest("base64");
  // A name the server keeps for itself is not the records' to make (the API does not refuse them).
  const ownRoles = roles.filter((r) => !isSystemRole(r.name));
  const ownDatabases = databases.filter((d) => !SYSTEM_DATABASES.has(d.name));
  return {
    branchId,
    roles: ownRoles,
    databases: ownDatabases,
    ids: new Set(databases.map((d) => d.id)),
    nameOf,
    fingerprint: {
      roles: ownRoles.map((r) => [r.name, r.login, digest(r.password)]),
      databases: ownDatabases.map((d) => [d.id, d.name, d.owner]),
    },
  };
}

/** The query whose one JSON value {@link parseCatalog} reads: the server's user roles and databases. */
export const CATALOG_QUERY = `SELECT json_build_object(
  'roles', (SELECT coalesce(json_agg(json_build_object('name', rolname, 'login', rolcanlogin,
                 'tag', coalesce(shobj_description(oid, 'pg_authid'), ''))), '[]')
            FROM pg_roles WHERE rolname !~ '^pg_' AND rolname NOT IN (${[...SYSTEM_ROLES].map(literal).join(", ")})),
  'databases', (SELECT coalesce(json_agg(json_build_object('name', datname, 'owner', pg_get_userbyid(datdba),
                 'tag', coalesce(shobj_description(oid, 'pg_database'), ''))), '[]')
            FROM pg_database WHERE datname NOT IN (${[...SYSTEM_DATABASES].map(literal).join(", ")})));`;

/** The server's catalog from the answer to {@link CATALOG_QUERY}. */
export function parseCatalog(json: string): CurrentCatalog {
  const raw = JSON.parse(json) as {
    roles: { name: string; login: boolean; tag: string }[];
    databases: { name: string; owner: string; tag: string }[];
  };
  return {
    roles: raw.roles.map((r) => ({ name: r.name, login: r.login, managed: r.tag === ROLE_TAG })),
    databases: raw.databases.map((d) => {
      const m = TAG.exec(d.tag);
      return { name: d.name, owner: d.owner, ...(m ? { branchId: m[1], id: Number(m[2]) } : {}) };
    }),
  };
}

/**
 * What turns `current` into `wanted`: SQL run in the `postgres` database, then, for roles that go, SQL
 * run in each database (what they own there passes to the superuser), then the roles' drop. Empty
 * when they agree.
 */
export interface CatalogPlan {
  main: string[];
  /** Per database name: statements to run connected to it. */
  perDatabase: [string, string[]][];
  last: string[];
}

export function catalogPlan(current: CurrentCatalog, wanted: WantedCatalog): CatalogPlan {
  const main: string[] = [];
  const existingRoles = new Map(current.roles.map((r) => [r.name, r]));
  for (const r of wanted.roles) {
    const login = r.login ? "LOGIN" : "NOLOGIN";
    const password = r.login && r.password !== undefined ? literal(scramVerifier(r.password)) : "NULL";
    const have = existingRoles.get(r.name);
    if (have) main.push(`ALTER ROLE ${ident(r.name)} WITH ${login} PASSWORD ${password};`);
    else
      main.push(
        `CREATE ROLE ${ident(r.name)} WITH ${login} CREATEDB CREATEROLE IN ROLE neon_superuser PASSWORD ${password};`,
      );
    if (have && !have.managed) {
      // One the application made with SQL, now the records': it gets what an API role has.
      main.push(
        `ALTER ROLE ${ident(r.name)} WITH CREATEDB CREATEROLE;`,
        `GRANT neon_superuser TO ${ident(r.name)};`,
      );
    }
    if (!have?.managed) main.push(`COMMENT ON ROLE ${ident(r.name)} IS ${literal(ROLE_TAG)};`);
  }

  // Databases: by this branch's id; then, by name, one the emulator did not make on this branch (the
  // parent's copy, or the server's own); the server's others are dropped, the records' others made.
  const left = [...current.databases];
  const take = (pred: (d: CurrentCatalog["databases"][number]) => boolean) => {
    const i = left.findIndex(pred);
    return i < 0 ? undefined : left.splice(i, 1)[0];
  };
  const mine = (d: CurrentCatalog["databases"][number]) => d.branchId === wanted.branchId;
  const matched = wanted.databases.map((w) => ({ w, have: take((d) => mine(d) && d.id === w.id) }));
  // Another branch's (a copy): under the name its record has now, which a rename may have changed.
  const currentName = (d: CurrentCatalog["databases"][number]) =>
    (d.branchId !== undefined && d.id !== undefined ? wanted.nameOf(d.branchId, d.id) : undefined) ?? d.name;
  for (const m of matched) m.have ??= take((d) => !mine(d) && currentName(d) === m.w.name);
  // Dropped: what the emulator made and the records no longer have; a database made with SQL stays,
  // and so does one whose record took a name the server keeps for itself.
  const dropped = left.filter((d) => d.branchId !== undefined && !(mine(d) && wanted.ids.has(d.id!)));
  for (const d of dropped) main.push(`DROP DATABASE ${ident(d.name)} WITH (FORCE);`);
  const kept = left.filter((d) => !dropped.includes(d));
  // Renames go through names no record has, so that two databases can swap theirs.
  const renames = matched.filter((m) => m.have && m.have.name !== m.w.name);
  const temp = (id: number) => `neon_emulator_rename_${id}`;
  for (const { w, have } of renames) {
    main.push(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${literal(have!.name)};`,
      `ALTER DATABASE ${ident(have!.name)} RENAME TO ${ident(temp(w.id))};`,
    );
  }
  for (const { w } of renames) main.push(`ALTER DATABASE ${ident(temp(w.id))} RENAME TO ${ident(w.name)};`);
  for (const { w, have } of matched) {
    if (!have) main.push(`CREATE DATABASE ${ident(w.name)} OWNER ${ident(w.owner)};`);
    else if (have.owner !== w.owner) main.push(`ALTER DATABASE ${ident(w.name)} OWNER TO ${ident(w.owner)};`);
    if (!have || !mine(have) || have.id !== w.id) {
      main.push(
        `COMMENT ON DATABASE ${ident(w.name)} IS ${literal(`neon-emulator database ${wanted.branchId}/${w.id}`)};`,
      );
    }
  }

  // Roles the records no longer have: what they own goes to the superuser, then they go.
  const wantedRoles = new Set(wanted.roles.map((r) => r.name));
  const gone = current.roles.filter((r) => r.managed && !wantedRoles.has(r.name) && !isSystemRole(r.name));
  const perDatabase: [string, string[]][] = [];
  const last: string[] = [];
  if (gone.length > 0) {
    // Every database that stays: what a role owns in one the application made is handed over too.
    for (const db of ["postgres", ...wanted.databases.map((d) => d.name), ...kept.map((d) => d.name)]) {
      perDatabase.push([
        db,
        gone.flatMap((r) => [
          `REASSIGN OWNED BY ${ident(r.name)} TO cloud_admin;`,
          `DROP OWNED BY ${ident(r.name)};`,
        ]),
      ]);
    }
    for (const r of gone) last.push(`DROP ROLE IF EXISTS ${ident(r.name)};`);
  }
  return { main, perDatabase, last };
}

/** `"name"`, quoted for SQL. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `'text'`, quoted for SQL. */
export function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The SCRAM-SHA-256 verifier Postgres stores for a password (RFC 5802/7677, 4096 iterations): given
 * instead of the password, the server never sees the password itself.
 */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password.normalize("NFKC"), salt, iterations, 32, "sha256");
  const hmac = (key: Buffer, text: string) => createHmac("sha256", key).update(text).digest();
  const storedKey = createHash("sha256").update(hmac(salted, "Client Key")).digest();
  const serverKey = hmac(salted, "Server Key");
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}
