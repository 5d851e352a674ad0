/**
 * A resource of the registry bound by the kit to a runtime made for the test, as the faces bind it:
 * each test builds its own runtime instead of resetting a shared one.
 */
import { resourceKind } from "../../provider/registry";
import { bind, type BoundResource } from "../../provider/resources/kit";
import { Runtime, type ProviderSettings } from "../../provider/resources/runtime";

/** `name`'s steps with the kit's rules over a new runtime with `settings`; lines go to `logSink`. */
export function boundResource(
  name: string,
  settings: ProviderSettings,
  logSink?: (line: string) => void,
): BoundResource {
  return bind(resourceKind(name), new Runtime({ settings, logSink }));
}

/** The URN the dynamic face gives a resource of type `type` named `name` (stack dev, project neon-it). */
export function urnOf(type: string, name: string): string {
  return `urn:pulumi:dev::neon-it::pulumi-nodejs:dynamic/neon:${type}::${name}`;
}

/** The steps of several resources over one new runtime, as one provider process serves a program. */
export function boundProgram(
  names: readonly string[],
  settings: ProviderSettings,
  logSink?: (line: string) => void,
): Record<string, BoundResource> {
  const rt = new Runtime({ settings, logSink });
  return Object.fromEntries(names.map((n) => [n, bind(resourceKind(n), rt)]));
}
