import { expect } from "chai";
import fc from "fast-check";
import { parseJson } from "../../sdk/src/json";

describe("SDK JSON reading", function () {
  it("reads every integer as its decimal string, all digits kept", function () {
    const id = (2n ** 256n - 1n).toString();
    expect(parseJson(`[{"id":${id},"count":3,"owner":"0xab"}]`)).to.deep.equal([{ id, count: "3", owner: "0xab" }]);
    expect(parseJson("42")).to.equal("42");
    expect(parseJson(`{"holders":0,"nested":{"balance":-1}}`)).to.deep.equal({ holders: "0", nested: { balance: "-1" } });
  });

  it("keeps times and positions as numbers, and a token's metadata and signed statements as written", function () {
    const text = `{"block":5,"time":1732351200,"logIndex":1,"batchIndex":0,"metadata":{"level":5,"stats":[1,2.5,{"id":3}]},"signed":{"0xab":{"rank":9}},"id":7}`;
    expect(parseJson(text)).to.deep.equal({
      block: "5",
      time: 1732351200,
      logIndex: 1,
      batchIndex: 0,
      metadata: { level: 5, stats: [1, 2.5, { id: 3 }] },
      signed: { "0xab": { rank: 9 } },
      id: "7",
    });
    expect(parseJson(`{"time":null,"metadata":null,"id":1}`)).to.deep.equal({ time: null, metadata: null, id: "1" });
  });

  it("leaves strings alone, whatever they hold, and reads floats as numbers", function () {
    const tricky = `{"a":"12","b":"x\\":5,\\"id\\":[9]","c":1.5,"d":1e3,"e":[true,false,null]}`;
    expect(parseJson(tricky)).to.deep.equal({ a: "12", b: 'x":5,"id":[9]', c: 1.5, d: 1000, e: [true, false, null] });
  });

  it("reads any JSON as JSON.parse does, but for the integers written as digits, which become strings", function () {
    const asStrings = (value: unknown): unknown =>
      typeof value === "number" && Number.isInteger(value) && Math.abs(value) < 1e21 // written without an exponent
        ? String(value)
        : Array.isArray(value)
          ? value.map(asStrings)
          : value !== null && typeof value === "object"
            ? Object.fromEntries(
                Object.entries(value).map(([key, inner]) => [
                  key,
                  ["time", "logIndex"].includes(key) || ["metadata", "signed"].includes(key) ? inner : asStrings(inner),
                ]),
              )
            : value;
    fc.assert(
      fc.property(fc.jsonValue({ noUnicodeString: false }), (value) => {
        const text = JSON.stringify(value);
        expect(parseJson(text)).to.deep.equal(asStrings(JSON.parse(text)));
      }),
      { numRuns: 500 },
    );
  });
});
