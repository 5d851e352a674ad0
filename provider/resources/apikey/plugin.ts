/** `ApiKey` as the provider plugin serves it (`neoncompute:index:ApiKey`); see `docs/api/ApiKey.md`. */
import { pluginClass } from "../../plugin/class";
import { apiKey } from "./kind";
import type { ApiKeyArgs, ApiKeyOutputs } from "./resource";

/** A Neon API key, served by the plugin. Inputs and outputs: see `docs/api/ApiKey.md`. */
export const ApiKey = pluginClass<ApiKeyArgs, ApiKeyOutputs>(apiKey);
export type ApiKey = InstanceType<typeof ApiKey>;
