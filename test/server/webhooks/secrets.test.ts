import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { newSecret, openSecret, sealSecret } from "../../../server/webhooks/secrets";

describe("webhooks: secrets sealed under WEBHOOKS_SECRET_KEYS", function () {
  const [older, newer] = [randomBytes(32), randomBytes(32)];

  it("keeps no trace of the secret in what the database stores, and opens it only for its own subscription", function () {
    const secret = newSecret();
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{32}$/);
    const sealed = sealSecret(secret, "ws_a", [older]);
    const bytes = Buffer.from(secret.slice(6), "base64");
    expect(sealed.includes(bytes)).to.equal(false);
    expect(sealed.toString("latin1")).to.not.include(secret.slice(6));
    expect(openSecret(sealed, "ws_a", [older])).to.equal(secret);
    // Copied onto another subscription's row, it does not open.
    expect(() => openSecret(sealed, "ws_b", [older])).to.throw(
      "the secret of webhook subscription ws_b opens with none of WEBHOOKS_SECRET_KEYS",
    );
    // Sealed twice, two different ciphertexts: equal secrets are not seen as equal in a dump.
    expect(sealSecret(secret, "ws_a", [older]).equals(sealed)).to.equal(false);
  });

  it("replaces the key as documented: every key listed opens, the first seals, and a dropped key's secrets do not open", function () {
    const before = newSecret();
    const sealedBefore = sealSecret(before, "ws_a", [older]);
    // The new key first, the old one after it.
    const keys = [newer, older];
    expect(openSecret(sealedBefore, "ws_a", keys)).to.equal(before);
    const after = newSecret();
    const sealedAfter = sealSecret(after, "ws_b", keys);
    expect(openSecret(sealedAfter, "ws_b", [newer])).to.equal(after);
    expect(() => openSecret(sealedAfter, "ws_b", [older])).to.throw(/opens with none of WEBHOOKS_SECRET_KEYS/);
    expect(() => openSecret(sealedBefore, "ws_a", [newer])).to.throw(/opens with none of WEBHOOKS_SECRET_KEYS/);
  });
});
