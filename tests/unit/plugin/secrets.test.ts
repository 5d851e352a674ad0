/**
 * Secrets on the plugin's wire: a value held inside a map keeps the whole output secret, since
 * outputs are marked per top-level key (a branch's `annotations` with one secret value).
 */
import { conceal, isSecret, reveal, secret, secretKeys } from "../../../provider/plugin/secrets";

describe("secretKeys", () => {
  it("names a top-level secret and a map or list that holds one at any depth; not plain values", () => {
    const props = {
      name: "pr-1",
      token: secret("t"),
      annotations: { pr: "42", owner: secret("alice") },
      nested: { a: [{ b: secret(1) }] },
      plain: { a: ["x"] },
    };
    expect(secretKeys(props).sort()).toEqual(["annotations", "nested", "token"]);
  });

  it("conceals those keys whole, so the revealed map goes back secret", () => {
    const sent = { annotations: { pr: "42", owner: secret("alice") }, name: "pr-1" };
    const out = conceal(reveal(sent) as Record<string, unknown>, secretKeys(sent));
    expect(isSecret(out.annotations)).toBe(true);
    expect(reveal(out.annotations)).toEqual({ pr: "42", owner: "alice" });
    expect(out.name).toBe("pr-1");
  });
});
