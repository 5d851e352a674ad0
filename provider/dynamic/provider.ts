/**
 * `Provider`: an explicit provider for the dynamic resources, so one stack can use several Neon
 * accounts (or API URLs). Resources pick it with the `provider` resource option.
 */
import * as pulumi from "@pulumi/pulumi";

/**
 * Settings of one {@link Provider}: its key, as `apiKey` or as `apiKeyEnv` (one of the two), and the
 * rest of {@link ProviderOptionArgs}.
 */
export type ProviderArgs = ProviderOptionArgs &
  (
    | {
        /** The API key of this account. Stored encrypted in the state (a secret). */
        apiKey: pulumi.Input<string>;
        apiKeyEnv?: undefined;
      }
    | {
        /**
         * The name of an environment variable holding this account's key (e.g. `STAGING_NEON_API_KEY`),
         * read by the provider at every preview, up, refresh and destroy: the state keeps only the name.
         */
        apiKeyEnv: pulumi.Input<string>;
        apiKey?: undefined;
      }
  );

/** The settings of a {@link Provider} besides its key. */
export interface ProviderOptionArgs {
  /** The API's base URL, ending in `/api/v2`; default `https://console.neon.tech/api/v2`. */
  apiUrl?: pulumi.Input<string>;
  /** Deadline of one wait on the control plane's operations, in seconds; default 1200. */
  operationTimeoutSeconds?: pulumi.Input<number>;
  /** How long one request may go unanswered, in seconds; default 30. */
  requestTimeoutSeconds?: pulumi.Input<number>;
}

/**
 * An explicit provider for `Compute` and `ApiKey` with its own credentials:
 *
 * ```ts
 * const staging = new Provider("staging", { apiKey: cfg.requireSecret("stagingKey") });
 * new Compute("db", { projectId, branchId }, { provider: staging });
 * // The key stays out of the state: the provider reads it from STAGING_NEON_API_KEY when it starts.
 * const fromEnv = new Provider("staging-env", { apiKeyEnv: "STAGING_NEON_API_KEY" });
 * ```
 *
 * Dynamic resources are served by Pulumi's `pulumi-nodejs` provider; each instance of this class is a
 * configured instance of it (its own provider process), holding the settings under the names the
 * resources read (`neon:apiKey`, …). Resources without the option use the stack's configuration.
 */
export class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: ProviderArgs, opts?: pulumi.ResourceOptions) {
    const asString = (v: pulumi.Input<number> | undefined) =>
      v === undefined ? undefined : pulumi.output(v).apply((n) => String(n));
    super(
      "pulumi-nodejs",
      name,
      {
        "neon:apiKey": args.apiKey === undefined ? undefined : pulumi.secret(args.apiKey),
        "neon:apiKeyEnv": args.apiKeyEnv,
        "neon:apiUrl": args.apiUrl,
        "neon:operationTimeoutSeconds": asString(args.operationTimeoutSeconds),
        "neon:requestTimeoutSeconds": asString(args.requestTimeoutSeconds),
      },
      opts,
    );
  }
}
