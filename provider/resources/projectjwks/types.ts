// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `ProjectJwks`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link ProjectJwks}. */
export interface ProjectJwksArgs {
  /**
   * The project. The service cannot change a JWKS: a change replaces it (see the resource's description for
   * the order).
   */
  projectId: pulumi.Input<string>;
  /**
   * The branch the JWKS applies to (`br-…`); without it, every branch of the project. Required with
   * `roleNames`. The service cannot change a JWKS: a change replaces it (see the resource's description for
   * the order).
   */
  branchId?: pulumi.Input<string>;
  /**
   * The authentication provider's name, 1–256 characters (`Clerk`, `Auth0`, `Stytch`). The service cannot
   * change a JWKS: a change replaces it (see the resource's description for the order).
   */
  providerName: pulumi.Input<string>;
  /**
   * The HTTPS URL that serves the JSON Web Key Set (`https://…/.well-known/jwks.json`); checked at preview,
   * without fetching it. The service cannot change a JWKS: a change replaces it (see the resource's
   * description for the order).
   */
  jwksUrl: pulumi.Input<string>;
  /**
   * The Postgres roles whose logins the JWKS's tokens may use (Neon RLS; deprecated in Neon's document), 1–10
   * distinct names of roles the branch `branchId` has (checked at preview: declare them as `Role` resources).
   * The provider asks the service not to create them, so no role appears behind the stack's back. Without it,
   * the service's default roles (`authenticator`, `authenticated`, `anonymous`), which it creates itself. The
   * service cannot change a JWKS: a change replaces it (see the resource's description for the order).
   */
  roleNames?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * The `aud` value the JWTs must carry; without it, any. The service cannot change a JWKS: a change replaces
   * it (see the resource's description for the order).
   */
  jwtAudience?: pulumi.Input<string>;
  /**
   * Adopt an existing JWKS instead of adding one: `"<projectId>/<jwksId>"` (the API's list of the project's
   * JWKS names them). `providerName`, `jwksUrl`, `branchId`, `roleNames` and `jwtAudience` must describe it
   * as it is. Read at creation only. Deleting the resource removes the JWKS.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link ProjectJwks}. */
export interface ProjectJwksOutputs {
  /**
   * The project. The service cannot change a JWKS: a change replaces it (see the resource's description for
   * the order).
   */
  projectId: string;
  /**
   * The branch the JWKS applies to (`br-…`); without it, every branch of the project. Required with
   * `roleNames`. The service cannot change a JWKS: a change replaces it (see the resource's description for
   * the order).
   */
  branchId?: string;
  /**
   * The authentication provider's name, 1–256 characters (`Clerk`, `Auth0`, `Stytch`). The service cannot
   * change a JWKS: a change replaces it (see the resource's description for the order).
   */
  providerName: string;
  /**
   * The HTTPS URL that serves the JSON Web Key Set (`https://…/.well-known/jwks.json`); checked at preview,
   * without fetching it. The service cannot change a JWKS: a change replaces it (see the resource's
   * description for the order).
   */
  jwksUrl: string;
  /**
   * The Postgres roles whose logins the JWKS's tokens may use (Neon RLS; deprecated in Neon's document), 1–10
   * distinct names of roles the branch `branchId` has (checked at preview: declare them as `Role` resources).
   * The provider asks the service not to create them, so no role appears behind the stack's back. Without it,
   * the service's default roles (`authenticator`, `authenticated`, `anonymous`), which it creates itself. The
   * service cannot change a JWKS: a change replaces it (see the resource's description for the order).
   */
  roleNames?: string[];
  /**
   * The `aud` value the JWTs must carry; without it, any. The service cannot change a JWKS: a change replaces
   * it (see the resource's description for the order).
   */
  jwtAudience?: string;
  /**
   * Adopt an existing JWKS instead of adding one: `"<projectId>/<jwksId>"` (the API's list of the project's
   * JWKS names them). `providerName`, `jwksUrl`, `branchId`, `roleNames` and `jwtAudience` must describe it
   * as it is. Read at creation only. Deleting the resource removes the JWKS.
   */
  importId?: string;
  /** The JWKS's id, as the API's list of the project's JWKS names it. */
  jwksId: string;
  /** When the JWKS was added (ISO 8601 UTC). */
  createdAt: string;
}

/** Inputs of a {@link ProjectJwks} after `check`: what its steps receive. */
export interface ProjectJwksInputs {
  /**
   * The project. The service cannot change a JWKS: a change replaces it (see the resource's description for
   * the order).
   */
  projectId: string;
  /**
   * The branch the JWKS applies to (`br-…`); without it, every branch of the project. Required with
   * `roleNames`. The service cannot change a JWKS: a change replaces it (see the resource's description for
   * the order).
   */
  branchId?: string;
  /**
   * The authentication provider's name, 1–256 characters (`Clerk`, `Auth0`, `Stytch`). The service cannot
   * change a JWKS: a change replaces it (see the resource's description for the order).
   */
  providerName: string;
  /**
   * The HTTPS URL that serves the JSON Web Key Set (`https://…/.well-known/jwks.json`); checked at preview,
   * without fetching it. The service cannot change a JWKS: a change replaces it (see the resource's
   * description for the order).
   */
  jwksUrl: string;
  /**
   * The Postgres roles whose logins the JWKS's tokens may use (Neon RLS; deprecated in Neon's document), 1–10
   * distinct names of roles the branch `branchId` has (checked at preview: declare them as `Role` resources).
   * The provider asks the service not to create them, so no role appears behind the stack's back. Without it,
   * the service's default roles (`authenticator`, `authenticated`, `anonymous`), which it creates itself. The
   * service cannot change a JWKS: a change replaces it (see the resource's description for the order).
   */
  roleNames?: string[];
  /**
   * The `aud` value the JWTs must carry; without it, any. The service cannot change a JWKS: a change replaces
   * it (see the resource's description for the order).
   */
  jwtAudience?: string;
  /**
   * Adopt an existing JWKS instead of adding one: `"<projectId>/<jwksId>"` (the API's list of the project's
   * JWKS names them). `providerName`, `jwksUrl`, `branchId`, `roleNames` and `jwtAudience` must describe it
   * as it is. Read at creation only. Deleting the resource removes the JWKS.
   */
  importId?: string;
}
