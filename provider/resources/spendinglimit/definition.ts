/**
 * The definition of `SpendingLimit`: every input and output with its type, docs and what a change does.
 * The plugin schema and `docs/api/SpendingLimit.md` are generated from it, the key lists and input
 * checks derived from it, and the class's args/outputs types held equal to it at compile time.
 * Dependency-free.
 */
import type { ResourceDef } from "../definition";
import { importIdInput } from "../definition";

/** What a SpendingLimit is called in messages. */
export const SPENDING_LIMIT_NOUN = "spending limit";

export const SPENDING_LIMIT_DEFINITION = {
  name: "SpendingLimit",
  description:
    "An organization's monthly budget alert (the API's spending limit; the Launch and Scale plans): Neon " +
    "emails the organization at 80% and at 100% of it. **It stops nothing**: computes are not suspended " +
    "when the spend passes it. One per organization. Setting it starts no operation. An organization that " +
    "already has one no resource of the stack manages fails at preview with the exact `importId`. Changed " +
    "in place; deleting the resource removes the alert.",
  importId: { format: "<orgId>", example: "org-cool-sky-12345678" },
  aliases: ["pulumi-nodejs:dynamic/neon:SpendingLimit"],
  properties: [
    {
      name: "orgId",
      type: "string",
      input: "required",
      output: "always",
      change: "replace",
      description:
        "The organization (`org-…`) the alert is for. Changing it removes this organization's alert, then " +
        "sets the other's.",
    },
    {
      name: "limitCents",
      type: "integer",
      input: "required",
      output: "always",
      change: "update",
      description:
        "The monthly amount the alerts are measured against, in US cents (at least 1: 50000 is $500). A " +
        "value below the month's spend so far is taken, and alerts at once. Changed in place.",
    },
    importIdInput(
      'Manage the alert an organization already has: `"<orgId>"`, naming this very organization. The ' +
        "declared `limitCents` replaces its amount. Read at creation only. Deleting the resource removes the " +
        "alert.",
    ),
  ],
  notes: [
    "A budget alert, not a cap: to bound spend, size the computes (`Compute`'s `maxCu`, scale to zero) " +
      "and watch the alerts.",
  ],
  examples: {
    title: "A $500 monthly budget alert",
    yaml: [
      "resources:",
      "  budget:",
      "    type: neoncompute:index:SpendingLimit",
      "    properties:",
      "      orgId: org-cool-sky-12345678",
      "      limitCents: 50000",
    ].join("\n"),
    typescript: [
      'import { plugin } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'new plugin.SpendingLimit("budget", { orgId: "org-cool-sky-12345678", limitCents: 50000 });',
    ].join("\n"),
  },
} as const satisfies ResourceDef;
