// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `NeonAuth`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/**
 * An OAuth provider users of a branch's Neon Auth sign in with: the app's own OAuth client, or, without
 * `clientId`, Neon's shared development credentials.
 */
export interface NeonAuthOauthProviderArgs {
  /** The provider: `google`, `github`, `microsoft` or `vercel`. */
  id: pulumi.Input<"google" | "github" | "microsoft" | "vercel">;
  /** The app's OAuth client id at the provider; without it, Neon's shared credentials are used. */
  clientId?: pulumi.Input<string>;
  /**
   * The OAuth client's secret (with `clientId`). Secret: stored encrypted, sent only in the request that sets
   * it, never read back (the service does not answer it).
   */
  clientSecret?: pulumi.Input<string>;
}

/**
 * As read: An OAuth provider users of a branch's Neon Auth sign in with: the app's own OAuth client, or,
 * without `clientId`, Neon's shared development credentials.
 */
export interface NeonAuthOauthProviderOutputs {
  /** The provider: `google`, `github`, `microsoft` or `vercel`. */
  id: "google" | "github" | "microsoft" | "vercel";
  /** The app's OAuth client id at the provider; without it, Neon's shared credentials are used. */
  clientId?: string;
  /**
   * The OAuth client's secret (with `clientId`). Secret: stored encrypted, sent only in the request that sets
   * it, never read back (the service does not answer it).
   */
  clientSecret?: string;
}

/**
 * After `check`: An OAuth provider users of a branch's Neon Auth sign in with: the app's own OAuth client,
 * or, without `clientId`, Neon's shared development credentials.
 */
export interface NeonAuthOauthProviderInputs {
  /** The provider: `google`, `github`, `microsoft` or `vercel`. */
  id: "google" | "github" | "microsoft" | "vercel";
  /** The app's OAuth client id at the provider; without it, Neon's shared credentials are used. */
  clientId?: string;
  /**
   * The OAuth client's secret (with `clientId`). Secret: stored encrypted, sent only in the request that sets
   * it, never read back (the service does not answer it).
   */
  clientSecret?: string;
}

/** Inputs of a {@link NeonAuth}. */
export interface NeonAuthArgs {
  /** The project. Changing it enables Neon Auth on the new branch (after disabling it here). */
  projectId: pulumi.Input<string>;
  /**
   * The branch (`br-…`) Neon Auth serves. Changing it disables Neon Auth here, then enables it on the new
   * branch (the users stay with this branch's database).
   */
  branchId: pulumi.Input<string>;
  /**
   * The database whose `neon_auth` schema holds the users; checked at preview against the branch's databases.
   * Changing it disables Neon Auth and enables it over the new database.
   */
  databaseName?: pulumi.Input<string>;
  /** The auth engine: `better_auth` (Neon Auth today) or `stack` (the earlier one). */
  authProvider?: pulumi.Input<"better_auth" | "stack">;
  /** Whether users sign up and in with an email and a password. Changed in place. */
  emailAndPassword?: pulumi.Input<boolean>;
  /**
   * Whether sign-in flows work from `localhost` without a trusted domain for it (for development). Changed in
   * place.
   */
  allowLocalhost?: pulumi.Input<boolean>;
  /**
   * The domains (URLs such as `https://app.example.com`) users may be sent back to after signing in: the
   * branch's whole list, in any order. Changed in place; left out, the list is not managed.
   */
  trustedDomains?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * The OAuth providers users sign in with, at most one per `id`: the branch's whole list. Changed in place
   * (a provider added, changed or removed on its own); left out, the list is not managed. Secret as a whole,
   * since it holds the clients' secrets.
   */
  oauthProviders?: pulumi.Input<pulumi.Input<NeonAuthOauthProviderArgs>[]>;
  /**
   * Whether disabling Neon Auth (the resource's delete, or a replacement's) also drops the `neon_auth` schema
   * and its users. Default false: the users stay in the database. A change is recorded in the stack (nothing
   * is sent), so the next delete follows it.
   */
  deleteDataOnDestroy?: pulumi.Input<boolean>;
  /**
   * Manage the Neon Auth a branch already has: `"<projectId>/<branchId>"`, naming this very branch. The
   * declared settings are then applied. Read at creation only. Deleting the resource disables it.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link NeonAuth}. */
export interface NeonAuthOutputs {
  /** The project. Changing it enables Neon Auth on the new branch (after disabling it here). */
  projectId: string;
  /**
   * The branch (`br-…`) Neon Auth serves. Changing it disables Neon Auth here, then enables it on the new
   * branch (the users stay with this branch's database).
   */
  branchId: string;
  /**
   * The database whose `neon_auth` schema holds the users; checked at preview against the branch's databases.
   * Changing it disables Neon Auth and enables it over the new database.
   */
  databaseName: string;
  /** The auth engine: `better_auth` (Neon Auth today) or `stack` (the earlier one). */
  authProvider: "better_auth" | "stack";
  /** Whether users sign up and in with an email and a password. Changed in place. */
  emailAndPassword?: boolean;
  /**
   * Whether sign-in flows work from `localhost` without a trusted domain for it (for development). Changed in
   * place.
   */
  allowLocalhost?: boolean;
  /**
   * The domains (URLs such as `https://app.example.com`) users may be sent back to after signing in: the
   * branch's whole list, in any order. Changed in place; left out, the list is not managed.
   */
  trustedDomains?: string[];
  /**
   * The OAuth providers users sign in with, at most one per `id`: the branch's whole list. Changed in place
   * (a provider added, changed or removed on its own); left out, the list is not managed. Secret as a whole,
   * since it holds the clients' secrets.
   */
  oauthProviders?: NeonAuthOauthProviderOutputs[];
  /**
   * Whether disabling Neon Auth (the resource's delete, or a replacement's) also drops the `neon_auth` schema
   * and its users. Default false: the users stay in the database. A change is recorded in the stack (nothing
   * is sent), so the next delete follows it.
   */
  deleteDataOnDestroy?: boolean;
  /**
   * Manage the Neon Auth a branch already has: `"<projectId>/<branchId>"`, naming this very branch. The
   * declared settings are then applied. Read at creation only. Deleting the resource disables it.
   */
  importId?: string;
  /** The URL of the branch's auth service (what an app's auth client is given). */
  baseUrl?: string;
  /** The URL of the JWKS: the public keys that verify the tokens Neon Auth issues. */
  jwksUrl: string;
  /** The id of the branch's project at the auth engine. */
  authProviderProjectId: string;
  /**
   * The client key an app's frontend is given (the service answers it when Neon Auth is enabled only: absent
   * for an imported one).
   */
  publishableClientKey?: string;
  /**
   * The server key an app's backend is given (answered when Neon Auth is enabled only: absent for an imported
   * one). Secret.
   */
  secretServerKey?: string;
  /** When Neon Auth was enabled on the branch (ISO 8601 UTC). */
  createdAt: string;
}

/** Inputs of a {@link NeonAuth} after `check`: what its steps receive. */
export interface NeonAuthInputs {
  /** The project. Changing it enables Neon Auth on the new branch (after disabling it here). */
  projectId: string;
  /**
   * The branch (`br-…`) Neon Auth serves. Changing it disables Neon Auth here, then enables it on the new
   * branch (the users stay with this branch's database).
   */
  branchId: string;
  /**
   * The database whose `neon_auth` schema holds the users; checked at preview against the branch's databases.
   * Changing it disables Neon Auth and enables it over the new database.
   */
  databaseName?: string;
  /** The auth engine: `better_auth` (Neon Auth today) or `stack` (the earlier one). */
  authProvider?: "better_auth" | "stack";
  /** Whether users sign up and in with an email and a password. Changed in place. */
  emailAndPassword?: boolean;
  /**
   * Whether sign-in flows work from `localhost` without a trusted domain for it (for development). Changed in
   * place.
   */
  allowLocalhost?: boolean;
  /**
   * The domains (URLs such as `https://app.example.com`) users may be sent back to after signing in: the
   * branch's whole list, in any order. Changed in place; left out, the list is not managed.
   */
  trustedDomains?: string[];
  /**
   * The OAuth providers users sign in with, at most one per `id`: the branch's whole list. Changed in place
   * (a provider added, changed or removed on its own); left out, the list is not managed. Secret as a whole,
   * since it holds the clients' secrets.
   */
  oauthProviders?: NeonAuthOauthProviderInputs[];
  /**
   * Whether disabling Neon Auth (the resource's delete, or a replacement's) also drops the `neon_auth` schema
   * and its users. Default false: the users stay in the database. A change is recorded in the stack (nothing
   * is sent), so the next delete follows it.
   */
  deleteDataOnDestroy?: boolean;
  /**
   * Manage the Neon Auth a branch already has: `"<projectId>/<branchId>"`, naming this very branch. The
   * declared settings are then applied. Read at creation only. Deleting the resource disables it.
   */
  importId?: string;
}
