/**
 * The roles and databases a branch's records say it has, and the SQL that makes a running server
 * hold exactly those. Databases carry their API id in a comment, so a rename or an owner change made
 * while the branch was stopped is found again by id; a branch's copy of its parent's databases (new
 * ids, the same names) is matched by name. Passwords reach the server only as SCRAM verifiers, so no
 * password is in any SQL text a server could log.
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
  roles: WantedRole[];
  databases: WantedDatabase[];
  /** What the catalog depends on, without any password in clear. */
  fingerprint: unknown;
}

export interface CurrentCatalog {
  roles: { name: string; login: boolean }[];
  databases: { name: string; id?: number; owner: string }[];
}

/** Roles and databases of the server itself, which the records never name. */
const SYSTEM_ROLES = ["cloud_admin", "neon_superuser"];
const SYSTEM_DATABASES = ["postgres", "template0", "template1"];
const TAG = "neon-emulator database ";

/** A catalog from the records, with a fingerprint that changes when any of it does. */
export function wantedCatalog(roles: WantedRole[], databases: WantedDatabase[]): WantedCatalog {
  const digest = (s: string | undefined) =>
    s === undefined ? null : createHash("sha256").update(s).digest("base64");
  return {
    roles,
    databases,
    fingerprint: {
      roles: roles.map((r) => [r.name, r.login, digest(r.password)]),
      databases: databases.map((d) => [d.id, d.name, d.owner]),
    },
  };
}

/** Reads the server's user roles and databases with `query` (rows as `|`-separated lines). */
export async function readCatalog(query: (sql: string) => Promise<string>): Promise<CurrentCatalog> {
  const out = await query(
    `SELECT 'r', rolname, rolcanlogin, '' FROM pg_roles WHERE rolname !~ '^pg_' AND rolname NOT IN (${SYSTEM_ROLES.map(literal).join(", ")});
SELECT 'd', datname, coalesce(shobj_description(oid, 'pg_database'), ''), pg_get_userbyid(datdba) FROM pg_database WHERE datname NOT IN (${SYSTEM_DATABASES.map(literal).join(", ")});`,
  );
  const current: CurrentCatalog = { roles: [], databases: [] };
  for (const line of out.split("\n")) {
    const [kind, name, a, b] = line.split("|");
    if (kind === "r") current.roles.push({ name, login: a === "t" });
    else if (kind === "d") {
      const id = a.startsWith(TAG) ? Number(a.slice(TAG.length)) : undefined;
      current.databases.push({ name, owner: b, ...(id !== undefined && Number.isFinite(id) ? { id } : {}) });
    }
  }
  return current;
}

/** The SQL (a psql script) that turns `current` into `wanted`, or "" when they agree. */
export function catalogScript(current: CurrentCatalog, wanted: WantedCatalog): string {
  const lines: string[] = [];
  const existingRoles = new Set(current.roles.map((r) => r.name));
  for (const r of wanted.roles) {
    const login = r.login ? "LOGIN" : "NOLOGIN";
    const password = r.login && r.password !== undefined ? literal(scramVerifier(r.password)) : "NULL";
    if (existingRoles.has(r.name))
      lines.push(`ALTER ROLE ${ident(r.name)} WITH ${login} PASSWORD ${password};`);
    else
      lines.push(
        `CREATE ROLE ${ident(r.name)} WITH ${login} CREATEDB CREATEROLE IN ROLE neon_superuser PASSWORD ${password};`,
      );
  }

  // Databases: by id, then by name; the rest of the server's are dropped, the rest of the records made.
  const left = [...current.databases];
  const take = (pred: (d: CurrentCatalog["databases"][number]) => boolean) => {
    const i = left.findIndex(pred);
    return i < 0 ? undefined : left.splice(i, 1)[0];
  };
  const matched = wanted.databases.map((w) => ({ w, have: take((d) => d.id === w.id) }));
  for (const m of matched) m.have ??= take((d) => d.name === m.w.name && d.id === undefined);
  for (const m of matched) m.have ??= take((d) => d.name === m.w.name);
  for (const d of left) lines.push(`DROP DATABASE ${ident(d.name)} WITH (FORCE);`);
  for (const { w, have } of matched) {
    if (!have) {
      lines.push(`CREATE DATABASE ${ident(w.name)} OWNER ${ident(w.owner)};`);
    } else {
      if (have.name !== w.name) {
        lines.push(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${literal(have.name)};`,
          `ALTER DATABASE ${ident(have.name)} RENAME TO ${ident(w.name)};`,
        );
      }
      if (have.owner !== w.owner) lines.push(`ALTER DATABASE ${ident(w.name)} OWNER TO ${ident(w.owner)};`);
    }
    if (have?.id !== w.id) lines.push(`COMMENT ON DATABASE ${ident(w.name)} IS ${literal(TAG + w.id)};`);
  }

  // Roles the records no longer have: what they own goes to the superuser, then they go.
  const wantedRoles = new Set(wanted.roles.map((r) => r.name));
  const gone = current.roles.filter((r) => !wantedRoles.has(r.name));
  if (gone.length > 0) {
    const databases = ["postgres", ...wanted.databases.map((d) => d.name)];
    for (const db of databases) {
      lines.push(`\\connect ${ident(db)}`);
      for (const r of gone)
        lines.push(`REASSIGN OWNED BY ${ident(r.name)} TO cloud_admin;`, `DROP OWNED BY ${ident(r.name)};`);
    }
    for (const r of gone) lines.push(`DROP ROLE IF EXISTS ${ident(r.name)};`);
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
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
