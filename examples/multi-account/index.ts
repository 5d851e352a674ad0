import * as pulumi from "@pulumi/pulumi";
import { Compute, Provider } from "@neon-labs-unofficial/pulumi-neon-compute";

// One entry per Neon account, e.g. { "staging": { "projectId": "…", "branchId": "br-…" }, "production": … };
// each account's API key is the secret config value "<name>Key" (pulumi config set --secret stagingKey …).
type Account = { apiUrl?: string; projectId: string; branchId: string };

const config = new pulumi.Config();
const accounts = config.requireObject<Record<string, Account>>("accounts");

export const computes = Object.fromEntries(
  Object.entries(accounts).map(([name, a]) => {
    // Resources given this provider use its key and URL instead of the stack's neon:* settings.
    const provider = new Provider(name, { apiKey: config.requireSecret(`${name}Key`), apiUrl: a.apiUrl });
    const db = new Compute(
      `${name}-db`,
      { projectId: a.projectId, branchId: a.branchId, cu: 0.5 },
      { provider },
    );
    return [name, { endpointId: db.endpointId, host: db.host }];
  }),
);
