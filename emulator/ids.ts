/** Identifier and token generators in the formats the real service uses. */
import { createHash, randomBytes } from "node:crypto";
import type { Rng } from "./rng";

const ADJECTIVES = [
  "amber",
  "bold",
  "calm",
  "crimson",
  "damp",
  "eager",
  "fancy",
  "gentle",
  "hidden",
  "icy",
  "jolly",
  "keen",
  "lively",
  "misty",
  "noisy",
  "odd",
  "proud",
  "quiet",
  "rapid",
  "silent",
  "tiny",
  "urban",
  "vivid",
  "wispy",
  "young",
  "zesty",
  "autumn",
  "broad",
  "cool",
  "dry",
];
const NOUNS = [
  "bird",
  "brook",
  "cloud",
  "dawn",
  "dust",
  "field",
  "forest",
  "frost",
  "glade",
  "hill",
  "lake",
  "leaf",
  "meadow",
  "moon",
  "night",
  "pond",
  "rain",
  "river",
  "sea",
  "shadow",
  "sky",
  "smoke",
  "snow",
  "star",
  "stone",
  "sun",
  "thunder",
  "tree",
  "wave",
  "wind",
];

function words(rng: Rng): string {
  return `${rng.pick(ADJECTIVES)}-${rng.pick(NOUNS)}`;
}

/** `ep-<adj>-<noun>-<8 hex>`, never one already in `taken`. */
export function endpointId(rng: Rng, taken: (id: string) => boolean): string {
  return unique(() => `ep-${words(rng)}-${rng.hex(8)}`, taken);
}

export function branchId(rng: Rng, taken: (id: string) => boolean): string {
  return unique(() => `br-${words(rng)}-${rng.hex(8)}`, taken);
}

/** `snap-<adj>-<noun>-<8 hex>` (the service's format is not documented; its pattern is `^[a-z0-9-]{1,60}$`). */
export function snapshotId(rng: Rng, taken: (id: string) => boolean): string {
  return unique(() => `snap-${words(rng)}-${rng.hex(8)}`, taken);
}

export function projectId(rng: Rng, taken: (id: string) => boolean): string {
  return unique(() => `${words(rng)}-${rng.hex(8)}`, taken);
}

export function orgId(rng: Rng): string {
  return `org-${words(rng)}-${rng.hex(8)}`;
}

function unique(make: () => string, taken: (id: string) => boolean): string {
  for (;;) {
    const id = make();
    if (!taken(id)) return id;
  }
}

/** A fresh API key token: 64 characters from a cryptographic source (never from the seed). */
export function newToken(): string {
  return randomBytes(48).toString("base64url").slice(0, 64);
}

const PASSWORD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A fresh role password: 12 letters and digits (like the API's examples) from a cryptographic source. */
export function newPassword(): string {
  return [...randomBytes(12)].map((b) => PASSWORD_ALPHABET[b % PASSWORD_ALPHABET.length]).join("");
}

export function sha256(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** An ISO 8601 UTC timestamp with milliseconds, as the API writes them. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** `aws-us-east-2` → `us-east-2.aws.neon.tech` */
export function proxyHostFor(regionId: string): string {
  const [platform, ...rest] = regionId.split("-");
  return `${rest.join("-")}.${platform}.neon.tech`;
}
