/**
 * The JSON Web Tokens of the emulator's Neon Auth and the checks of its Data API: an Ed25519 signing
 * key per Neon Auth (EdDSA, as Better Auth's JWT plugin signs by default), its public part as a JWKS,
 * and a token's verification against a JWKS (signature, `kid`, expiry, audience). Node's crypto only.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  sign,
  verify,
} from "node:crypto";
import { z } from "zod";

/** A signing key as a Neon Auth record keeps it (the private part never leaves the emulator). */
export const SigningKeySchema = z.object({
  kid: z.string(),
  private_pem: z.string(),
  public_jwk: z.object({ kty: z.string(), crv: z.string(), x: z.string() }),
});
export type SigningKey = z.infer<typeof SigningKeySchema>;

/** A public key as a JWKS lists it. */
export interface PublicJwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
  alg: string;
  use: string;
}

/** A new Ed25519 signing key. */
export function newSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const jwk = publicKey.export({ format: "jwk" }) as { kty: string; crv: string; x: string };
  return {
    kid: randomUUID(),
    private_pem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    public_jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
  };
}

/** The JWKS that publishes a key's public part. */
export function jwksOf(key: SigningKey): { keys: PublicJwk[] } {
  return { keys: [{ ...key.public_jwk, kid: key.kid, alg: "EdDSA", use: "sig" }] };
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

/** A signed token of `claims` (times in seconds since the epoch, as JWTs have them). */
export function signJwt(key: SigningKey, claims: Record<string, unknown>): string {
  const head = `${b64({ alg: "EdDSA", typ: "JWT", kid: key.kid })}.${b64(claims)}`;
  const sig = sign(null, Buffer.from(head), createPrivateKey(key.private_pem));
  return `${head}.${sig.toString("base64url")}`;
}

/** The claims of a token that verified, or why it did not. */
export type Verified = { ok: true; claims: Record<string, unknown> } | { ok: false; reason: string };

/**
 * Verifies `token` against the keys of a JWKS: an EdDSA signature by the key its `kid` names, not
 * expired at `nowSeconds`, and, given `audience`, a token whose `aud` (when it has one) is it — the
 * document says a token without an audience is still accepted.
 */
export function verifyJwt(
  token: string,
  jwks: { keys?: readonly Partial<PublicJwk>[] },
  nowSeconds: number,
  audience?: string,
): Verified {
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, reason: "the token is not a JWT" };
  let head: { alg?: string; kid?: string };
  let claims: Record<string, unknown>;
  try {
    head = JSON.parse(Buffer.from(parts[0], "base64url").toString()) as typeof head;
    claims = JSON.parse(Buffer.from(parts[1], "base64url").toString()) as typeof claims;
  } catch {
    return { ok: false, reason: "the token is not a JWT" };
  }
  if (head.alg !== "EdDSA")
    return { ok: false, reason: `the token's algorithm ${String(head.alg)} is not EdDSA` };
  const jwk = (jwks.keys ?? []).find((k) => k.kid === head.kid && k.kty === "OKP");
  if (!jwk) return { ok: false, reason: "no key of the JWKS signed the token" };
  const good = verify(
    null,
    Buffer.from(`${parts[0]}.${parts[1]}`),
    createPublicKey({ key: { kty: "OKP", crv: jwk.crv ?? "Ed25519", x: jwk.x ?? "" }, format: "jwk" }),
    Buffer.from(parts[2], "base64url"),
  );
  if (!good) return { ok: false, reason: "the token's signature does not verify" };
  if (typeof claims.exp === "number" && claims.exp <= nowSeconds)
    return { ok: false, reason: "the token expired" };
  if (audience !== undefined && claims.aud !== undefined) {
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!aud.includes(audience)) return { ok: false, reason: "the token is for another audience" };
  }
  return { ok: true, claims };
}
