// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `DataApi`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/** Settings of a Data API; each one left out keeps the service's value. */
export interface DataApiSettingsArgs {
  /** The schemas the API exposes (the service: `["public"]`). */
  dbSchemas?: pulumi.Input<pulumi.Input<string>[]>;
  /** The most rows one request returns. */
  dbMaxRows?: pulumi.Input<number>;
  /** The database role of requests without a token (the service: `anonymous`). */
  dbAnonRole?: pulumi.Input<string>;
  /** Whether aggregate functions may be used (the service: true). */
  dbAggregatesEnabled?: pulumi.Input<boolean>;
  /** More schemas for the search path. */
  dbExtraSearchPath?: pulumi.Input<string>;
  /** The token claim that names the database role (the service: `.role`). */
  jwtRoleClaimKey?: pulumi.Input<string>;
  /** How long verified tokens are cached, in seconds. */
  jwtCacheMaxLifetime?: pulumi.Input<number>;
  /** The OpenAPI description's mode: `ignore-privileges` or `disabled` (the service's). */
  openapiMode?: pulumi.Input<"ignore-privileges" | "disabled">;
  /** The origins browsers may call the API from (CORS). */
  serverCorsAllowedOrigins?: pulumi.Input<string>;
  /** Whether answers carry server timing headers. */
  serverTimingEnabled?: pulumi.Input<boolean>;
}

/** As read: Settings of a Data API; each one left out keeps the service's value. */
export interface DataApiSettingsOutputs {
  /** The schemas the API exposes (the service: `["public"]`). */
  dbSchemas?: string[];
  /** The most rows one request returns. */
  dbMaxRows?: number;
  /** The database role of requests without a token (the service: `anonymous`). */
  dbAnonRole?: string;
  /** Whether aggregate functions may be used (the service: true). */
  dbAggregatesEnabled?: boolean;
  /** More schemas for the search path. */
  dbExtraSearchPath?: string;
  /** The token claim that names the database role (the service: `.role`). */
  jwtRoleClaimKey?: string;
  /** How long verified tokens are cached, in seconds. */
  jwtCacheMaxLifetime?: number;
  /** The OpenAPI description's mode: `ignore-privileges` or `disabled` (the service's). */
  openapiMode?: "ignore-privileges" | "disabled";
  /** The origins browsers may call the API from (CORS). */
  serverCorsAllowedOrigins?: string;
  /** Whether answers carry server timing headers. */
  serverTimingEnabled?: boolean;
}

/** After `check`: Settings of a Data API; each one left out keeps the service's value. */
export interface DataApiSettingsInputs {
  /** The schemas the API exposes (the service: `["public"]`). */
  dbSchemas?: string[];
  /** The most rows one request returns. */
  dbMaxRows?: number;
  /** The database role of requests without a token (the service: `anonymous`). */
  dbAnonRole?: string;
  /** Whether aggregate functions may be used (the service: true). */
  dbAggregatesEnabled?: boolean;
  /** More schemas for the search path. */
  dbExtraSearchPath?: string;
  /** The token claim that names the database role (the service: `.role`). */
  jwtRoleClaimKey?: string;
  /** How long verified tokens are cached, in seconds. */
  jwtCacheMaxLifetime?: number;
  /** The OpenAPI description's mode: `ignore-privileges` or `disabled` (the service's). */
  openapiMode?: "ignore-privileges" | "disabled";
  /** The origins browsers may call the API from (CORS). */
  serverCorsAllowedOrigins?: string;
  /** Whether answers carry server timing headers. */
  serverTimingEnabled?: boolean;
}

/** Inputs of a {@link DataApi}. */
export interface DataApiArgs {
  /** The project. Changing it replaces the Data API. */
  projectId: pulumi.Input<string>;
  /** The branch (`br-…`) of the database. Changing it replaces the Data API. */
  branchId: pulumi.Input<string>;
  /**
   * The database the API serves; checked at preview against the branch's databases. Changing it replaces the
   * Data API.
   */
  databaseName: pulumi.Input<string>;
  /**
   * Whose tokens the API accepts: `neon_auth` (the branch's Neon Auth; declare a `NeonAuth` for the branch
   * and make this resource depend on it) or `external` (give `jwksUrl`). Changing it replaces the Data API.
   */
  authProvider?: pulumi.Input<"neon_auth" | "external">;
  /**
   * With `external`: the URL of the provider's JWKS (an http(s) URL, checked at preview). Changing it
   * replaces the Data API.
   */
  jwksUrl?: pulumi.Input<string>;
  /** With `external`: the provider's name (Clerk, Auth0, …). Changing it replaces the Data API. */
  providerName?: pulumi.Input<string>;
  /**
   * Tokens whose audience claim differs are refused (tokens without one are still accepted, as Neon's
   * document warns). Changing it replaces the Data API.
   */
  jwtAudience?: pulumi.Input<string>;
  /**
   * Grant authenticated users every permission on the tables of the `public` schema when the API is created.
   */
  addDefaultGrants?: pulumi.Input<boolean>;
  /** The API's settings; only those given are set, in place. */
  settings?: pulumi.Input<DataApiSettingsArgs>;
  /**
   * Manage the Data API a database already has: `"<projectId>/<branchId>/<databaseName>"`, naming this very
   * database. The declared settings are then applied. Read at creation only. Deleting the resource deletes
   * it.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link DataApi}. */
export interface DataApiOutputs {
  /** The project. Changing it replaces the Data API. */
  projectId: string;
  /** The branch (`br-…`) of the database. Changing it replaces the Data API. */
  branchId: string;
  /**
   * The database the API serves; checked at preview against the branch's databases. Changing it replaces the
   * Data API.
   */
  databaseName: string;
  /**
   * Whose tokens the API accepts: `neon_auth` (the branch's Neon Auth; declare a `NeonAuth` for the branch
   * and make this resource depend on it) or `external` (give `jwksUrl`). Changing it replaces the Data API.
   */
  authProvider?: "neon_auth" | "external";
  /**
   * With `external`: the URL of the provider's JWKS (an http(s) URL, checked at preview). Changing it
   * replaces the Data API.
   */
  jwksUrl?: string;
  /** With `external`: the provider's name (Clerk, Auth0, …). Changing it replaces the Data API. */
  providerName?: string;
  /**
   * Tokens whose audience claim differs are refused (tokens without one are still accepted, as Neon's
   * document warns). Changing it replaces the Data API.
   */
  jwtAudience?: string;
  /**
   * Grant authenticated users every permission on the tables of the `public` schema when the API is created.
   */
  addDefaultGrants?: boolean;
  /** The API's settings; only those given are set, in place. */
  settings?: DataApiSettingsOutputs;
  /**
   * Manage the Data API a database already has: `"<projectId>/<branchId>/<databaseName>"`, naming this very
   * database. The declared settings are then applied. Read at creation only. Deleting the resource deletes
   * it.
   */
  importId?: string;
  /** The API's URL: `GET <url>/<table>` with `Authorization: Bearer <token>` reads a table. */
  url: string;
  /** The state of the API's deployment, as the service reports it. */
  status?: string;
}

/** Inputs of a {@link DataApi} after `check`: what its steps receive. */
export interface DataApiInputs {
  /** The project. Changing it replaces the Data API. */
  projectId: string;
  /** The branch (`br-…`) of the database. Changing it replaces the Data API. */
  branchId: string;
  /**
   * The database the API serves; checked at preview against the branch's databases. Changing it replaces the
   * Data API.
   */
  databaseName: string;
  /**
   * Whose tokens the API accepts: `neon_auth` (the branch's Neon Auth; declare a `NeonAuth` for the branch
   * and make this resource depend on it) or `external` (give `jwksUrl`). Changing it replaces the Data API.
   */
  authProvider: "neon_auth" | "external";
  /**
   * With `external`: the URL of the provider's JWKS (an http(s) URL, checked at preview). Changing it
   * replaces the Data API.
   */
  jwksUrl?: string;
  /** With `external`: the provider's name (Clerk, Auth0, …). Changing it replaces the Data API. */
  providerName?: string;
  /**
   * Tokens whose audience claim differs are refused (tokens without one are still accepted, as Neon's
   * document warns). Changing it replaces the Data API.
   */
  jwtAudience?: string;
  /**
   * Grant authenticated users every permission on the tables of the `public` schema when the API is created.
   */
  addDefaultGrants?: boolean;
  /** The API's settings; only those given are set, in place. */
  settings?: DataApiSettingsInputs;
  /**
   * Manage the Data API a database already has: `"<projectId>/<branchId>/<databaseName>"`, naming this very
   * database. The declared settings are then applied. Read at creation only. Deleting the resource deletes
   * it.
   */
  importId?: string;
}
