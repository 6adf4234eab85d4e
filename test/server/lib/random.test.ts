import { expect } from "chai";
import { randomString } from "../../../server/lib/random";

describe("randomString (challenge ids, message randoms and SIWE nonces)", function () {
  it("answers `size` bytes in the encoding asked for", function () {
    expect(randomString(16, "hex")).to.match(/^[0-9a-f]{32}$/);
    expect(randomString(24, "base64url")).to.match(/^[A-Za-z0-9_-]{32}$/);
  });

  it("never hands out the same bytes twice, across many refills of its pool", function () {
    const seen = new Set<string>();
    // 20,000 × 16 bytes is about 80 refills of a 4 KiB pool.
    for (let i = 0; i < 20_000; i++) seen.add(randomString(16, "hex"));
    expect(seen.size).to.equal(20_000);
  });

  it("answers a size larger than its pool", function () {
    expect(randomString(5000, "hex")).to.match(/^[0-9a-f]{10000}$/);
  });

  it("looks uniform: each hex digit about 1/16 of a large sample", function () {
    const sample = randomString(64_000, "hex");
    for (const digit of "0123456789abcdef") {
      const share = sample.split(digit).length - 1;
      // 128,000 digits: 8,000 expected per digit, a standard deviation of about 87.
      expect(share, digit).to.be.within(7_400, 8_600);
    }
  });
});
