/** The branch calls of the client (`BranchCalls`). */
import { route, type HttpClient } from "../http";
import type { Call } from "./call";
import { collectAll, paginate } from "./pager";
import { deleteOr204 } from "./deletes";
import {
  BranchesResponseSchema,
  BranchOperationsSchema,
  BranchResponseSchema,
  BranchSchemaSchema,
  BranchTablesSchema,
  SchemaCompareSchema,
  type SchemaTable,
  type Branch,
  type BranchCreateBody,
  type BranchOperations,
  type BranchUpdateBody,
} from "./schemas";

/** What `compare_schema` compares: a database, against a base branch, optionally at points in time. */
export interface SchemaCompareQuery {
  databaseName: string;
  baseBranchId?: string;
  lsn?: string;
  timestamp?: string;
  baseLsn?: string;
  baseTimestamp?: string;
}

/** Which schema `schema` reads: a database, optionally at a point in time (an LSN or a time, not both). */
export interface SchemaQuery {
  databaseName: string;
  lsn?: string;
  timestamp?: string;
}

/** The branch calls of the client. */
export interface BranchCalls {
  /** One branch by id; 404 when it does not exist in the project. */
  get(projectId: string, branchId: string): Promise<Branch>;
  /** One branch with the annotation its create gave (`annotation_value`; `{}` when none). */
  getAnnotated(
    projectId: string,
    branchId: string,
  ): Promise<{ branch: Branch; annotation: Record<string, string> }>;
  /** Every branch of the project (every page); `search` keeps those whose name or id contains it. */
  list(projectId: string, opts?: { search?: string }): Promise<Branch[]>;
  /** {@link list} with each branch's annotation (`{}` when none). */
  listAnnotated(
    projectId: string,
    opts?: { search?: string },
  ): Promise<{ branch: Branch; annotation: Record<string, string> }[]>;
  /** Creates a branch, with its computes (`endpoints`) in the same request. */
  create(projectId: string, body: BranchCreateBody): Promise<BranchOperations>;
  update(projectId: string, branchId: string, body: BranchUpdateBody): Promise<BranchOperations>;
  /**
   * Resets the branch to `sourceBranchId`'s head (`restore`), keeping its id; `preserveUnderName`
   * keeps its previous state as a new branch of that name (required when it has children).
   */
  restore(
    projectId: string,
    branchId: string,
    sourceBranchId: string,
    preserveUnderName?: string,
  ): Promise<BranchOperations>;
  /** `undefined` when the API answers 204 (the branch does not exist or is already deleted). */
  delete(projectId: string, branchId: string): Promise<BranchOperations | undefined>;
  /**
   * The unified difference between a base branch's schema of a database and this branch's
   * (`compare_schema`; the base defaults to the branch's parent): "" when they agree.
   */
  compareSchema(projectId: string, branchId: string, q: SchemaCompareQuery): Promise<string>;
  /** One database's schema on the branch as SQL (`GET …/schema`, `pg_dump --schema-only` text). */
  schema(projectId: string, branchId: string, q: SchemaQuery): Promise<string>;
  /** One database's tables on the branch with their columns (`GET …/schema`, `format=json`). */
  tables(projectId: string, branchId: string, databaseName: string): Promise<SchemaTable[]>;
}

/** Branches asked for per page of the listing (the spec allows up to 10000). */
export const BRANCH_PAGE_SIZE = 1000;

/** Branches read at most from one project's listing: a plan's cap (5000) and then some. */
export const MAX_BRANCHES = 20_000;

const branch = (p: string, b: string) => `branch ${b} of project ${p}`;

// The string values of an annotation as the service answers it.
const strings = (a: { value?: Record<string, unknown> | null } | null | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(a?.value ?? {}).filter((e): e is [string, string] => typeof e[1] === "string"),
  );

/** The reads of branches with their annotations: one branch, and every page of the listing. */
function annotatedCalls(call: Call): Pick<BranchCalls, "getAnnotated" | "listAnnotated"> {
  // One read of a branch: the branch, and the string values of its annotation.
  const getAnnotated: BranchCalls["getAnnotated"] = (p, b) =>
    call(
      route("GET /projects/{project_id}/branches/{branch_id}", { project_id: p, branch_id: b }),
      "read",
      branch(p, b),
      BranchResponseSchema,
      { map: (r) => ({ branch: r.branch, annotation: strings(r.annotation) }) },
    );
  // Every page of the listing, following `pagination.next` to the end.
  const listAnnotated: BranchCalls["listAnnotated"] = (p, o = {}) =>
    collectAll(
      paginate(BRANCH_PAGE_SIZE, async (cursor) => {
        const page = await call(
          route("GET /projects/{project_id}/branches", { project_id: p }),
          "list",
          `the branches of project ${p}`,
          BranchesResponseSchema,
          // By creation time, which never changes: a branch updated between two pages keeps its place.
          { query: { limit: BRANCH_PAGE_SIZE, sort_by: "created_at", cursor, search: o.search } },
        );
        return {
          items: page.branches.map((b) => ({ branch: b, annotation: strings(page.annotations?.[b.id]) })),
          cursor: page.pagination?.next ?? undefined,
        };
      }),
      { limit: MAX_BRANCHES },
    );
  return { getAnnotated, listAnnotated };
}

export function branchCalls(call: Call, http: HttpClient): BranchCalls {
  const { getAnnotated, listAnnotated } = annotatedCalls(call);
  return {
    get: async (p, b) => (await getAnnotated(p, b)).branch,
    getAnnotated,
    list: async (p, o) => (await listAnnotated(p, o)).map((x) => x.branch),
    listAnnotated,
    create: (p, body) =>
      call(
        route("POST /projects/{project_id}/branches", { project_id: p }),
        "create",
        `branch${body.branch.name ? ` "${body.branch.name}"` : ""} in project ${p}`,
        BranchOperationsSchema,
        { body },
      ),
    update: (p, b, body) =>
      call(
        route("PATCH /projects/{project_id}/branches/{branch_id}", { project_id: p, branch_id: b }),
        "update",
        branch(p, b),
        BranchOperationsSchema,
        { body: { branch: body } },
      ),
    compareSchema: (p, b, q) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/compare_schema", {
          project_id: p,
          branch_id: b,
        }),
        "compare the schema of",
        `database "${q.databaseName}" of ${branch(p, b)}`,
        SchemaCompareSchema,
        {
          query: {
            db_name: q.databaseName,
            base_branch_id: q.baseBranchId,
            lsn: q.lsn,
            timestamp: q.timestamp,
            base_lsn: q.baseLsn,
            base_timestamp: q.baseTimestamp,
          },
          map: (r) => r.diff ?? "",
        },
      ),
    schema: (p, b, q) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/schema", { project_id: p, branch_id: b }),
        "read the schema of",
        `database "${q.databaseName}" of ${branch(p, b)}`,
        BranchSchemaSchema,
        {
          query: { db_name: q.databaseName, lsn: q.lsn, timestamp: q.timestamp, format: "sql" },
          map: (r) => r.sql ?? "",
        },
      ),
    tables: (p, b, db) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/schema", { project_id: p, branch_id: b }),
        "read the tables of",
        // The database's name stays out: a masking rule (sensitive) names it.
        `a database of ${branch(p, b)}`,
        BranchTablesSchema,
        { query: { db_name: db, format: "json" }, map: (r) => r.json?.tables ?? [] },
      ),
    restore: (p, b, source, preserveUnderName) =>
      call(
        route("POST /projects/{project_id}/branches/{branch_id}/restore", { project_id: p, branch_id: b }),
        "reset",
        branch(p, b),
        BranchOperationsSchema,
        {
          body: {
            source_branch_id: source,
            ...(preserveUnderName ? { preserve_under_name: preserveUnderName } : {}),
          },
        },
      ),
    delete: (p, b) =>
      deleteOr204(
        http,
        route("DELETE /projects/{project_id}/branches/{branch_id}", { project_id: p, branch_id: b }),
        branch(p, b),
        BranchOperationsSchema,
      ),
  };
}
