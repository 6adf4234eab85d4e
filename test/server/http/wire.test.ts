import { expect } from "chai";
import { HttpError } from "../../../server/http/http-error";
import { parseAddress, parseTokenId, toJson } from "../../../server/http/wire";

describe("wire rules (addresses, ids, exact big numbers)", function () {
  const CHECKSUMMED = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

  function refusal(fn: () => unknown): HttpError {
    try {
      fn();
    } catch (error) {
      expect(error).to.be.instanceOf(HttpError);
      expect((error as HttpError).statusCode).to.equal(400);
      return error as HttpError;
    }
    throw new Error("expected a 400");
  }

  describe("parseAddress", function () {
    it("takes any single case and answers it checksummed", function () {
      expect(parseAddress(CHECKSUMMED.toLowerCase())).to.equal(CHECKSUMMED);
      expect(parseAddress(`0x${CHECKSUMMED.slice(2).toUpperCase()}`)).to.equal(CHECKSUMMED);
      expect(parseAddress(CHECKSUMMED)).to.equal(CHECKSUMMED);
    });

    it("refuses a mixed-case address with a bad checksum", function () {
      const typo = CHECKSUMMED.replace("aAeb", "aaEb");
      expect(refusal(() => parseAddress(typo, "owner")).message).to.equal("owner fails its EIP-55 checksum");
    });

    it("refuses anything that is not 0x and 40 hex digits", function () {
      for (const bad of ["", "0x", CHECKSUMMED.slice(2), `${CHECKSUMMED}00`, "0x" + "g".repeat(40), " " + CHECKSUMMED, "XE7338O073KYGTWWZN0F2WZ0R8PX5ZPPZS"]) {
        expect(refusal(() => parseAddress(bad)).code, bad).to.equal("invalid_address");
      }
    });
  });

  describe("parseTokenId", function () {
    it("takes decimal uint256 values, 0 and 2^256 - 1 included", function () {
      expect(parseTokenId("0")).to.equal(0n);
      expect(parseTokenId("9007199254740993")).to.equal(9007199254740993n);
      expect(parseTokenId((2n ** 256n - 1n).toString())).to.equal(2n ** 256n - 1n);
    });

    it("refuses signs, exponents, hex, leading zeros, fractions and values past 2^256 - 1", function () {
      for (const bad of ["", "-1", "+1", "1e3", "0x10", "01", "1.0", " 1", (2n ** 256n).toString(), "9".repeat(79)]) {
        expect(refusal(() => parseTokenId(bad)).code, bad).to.equal("invalid_token_id");
      }
    });
  });

  describe("toJson", function () {
    it("writes bigints as JSON numbers with every digit", function () {
      const id = 2n ** 255n + 7n;
      expect(toJson([{ id, contract: "0xabc", n: 1 }])).to.equal(`[{"id":${id},"contract":"0xabc","n":1}]`);
    });

    it("leaves user strings alone, even ones shaped like a marker", function () {
      const value = { s: "bigint:12", t: "\u0000bigint:12", u: "\u0000bigint-0123456789abcdef:12" };
      expect(JSON.parse(toJson(value))).to.deep.equal(value);
    });
  });
});
