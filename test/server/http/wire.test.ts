import { expect } from "chai";
import { toJson } from "../../../server/http/wire";

describe("wire rules (exact big numbers)", function () {
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
