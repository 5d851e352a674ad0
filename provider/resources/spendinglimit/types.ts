// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `SpendingLimit`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link SpendingLimit}. */
export interface SpendingLimitArgs {
  /**
   * The organization (`org-…`) the alert is for. Changing it removes this organization's alert, then sets the
   * other's.
   */
  orgId: pulumi.Input<string>;
  /**
   * The monthly amount the alerts are measured against, in US cents (at least 1: 50000 is $500). A value
   * below the month's spend so far is taken, and alerts at once. Changed in place.
   */
  limitCents: pulumi.Input<number>;
  /**
   * Manage the alert an organization already has: `"<orgId>"`, naming this very organization. The declared
   * `limitCents` replaces its amount. Read at creation only. Deleting the resource removes the alert.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link SpendingLimit}. */
export interface SpendingLimitOutputs {
  /**
   * The organization (`org-…`) the alert is for. Changing it removes this organization's alert, then sets the
   * other's.
   */
  orgId: string;
  /**
   * The monthly amount the alerts are measured against, in US cents (at least 1: 50000 is $500). A value
   * below the month's spend so far is taken, and alerts at once. Changed in place.
   */
  limitCents: number;
  /**
   * Manage the alert an organization already has: `"<orgId>"`, naming this very organization. The declared
   * `limitCents` replaces its amount. Read at creation only. Deleting the resource removes the alert.
   */
  importId?: string;
}

/** Inputs of a {@link SpendingLimit} after `check`: what its steps receive. */
export interface SpendingLimitInputs {
  /**
   * The organization (`org-…`) the alert is for. Changing it removes this organization's alert, then sets the
   * other's.
   */
  orgId: string;
  /**
   * The monthly amount the alerts are measured against, in US cents (at least 1: 50000 is $500). A value
   * below the month's spend so far is taken, and alerts at once. Changed in place.
   */
  limitCents: number;
  /**
   * Manage the alert an organization already has: `"<orgId>"`, naming this very organization. The declared
   * `limitCents` replaces its amount. Read at creation only. Deleting the resource removes the alert.
   */
  importId?: string;
}
