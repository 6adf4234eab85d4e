import { expect } from "chai";
import { AbiCoder, Interface } from "ethers";
import { decodeAbiString, decodeResult } from "../../../server/chain/abi-string";
import { word } from "../../helpers/raw-logs";

// The resolver read tokenURI and uri answers with ethers' Interface.decodeFunctionResult: decodeAbiString must read
// what it reads and refuse what it refuses.
const TOKEN_URI = new Interface(["function uri(uint256 id) view returns (string)"]);
const ethersDecode = (data: string) => TOKEN_URI.decodeFunctionResult("uri", data)[0] as string;
const encode = (text: string) => AbiCoder.defaultAbiCoder().encode(["string"], [text]);

/** Both read it the same, or both refuse it. */
function expectSameAsEthers(data: string, label = data.slice(0, 80)) {
  let expected: { text: string } | { refused: true };
  try {
    expected = { text: ethersDecode(data) };
  } catch {
    expected = { refused: true };
  }
  let actual: { text: string } | { refused: true };
  try {
    actual = { text: decodeAbiString(data) };
  } catch (error) {
    expect(error, label).to.be.instanceOf(TypeError);
    actual = { refused: true };
  }
  expect(actual, label).to.deep.equal(expected);
  return actual;
}

describe("decodeAbiString", function () {
  it("reads every string ethers encodes as ethers reads it: empty, ASCII, multibyte, a BOM, a megabyte", function () {
    for (const text of [
      "",
      "ipfs://Qm/{id}.json",
      "データ🎨",
      "\uFEFFbom",
      "x".repeat(31),
      "y".repeat(32),
      "z".repeat(33),
      "{id}".repeat(280_000),
    ]) {
      expect(expectSameAsEthers(encode(text), text.slice(0, 20))).to.deep.equal({ text });
    }
  });

  it("refuses what ethers refuses: not hex, odd length, not whole words, offsets and lengths outside the data or past 2^53", function () {
    const ok = encode("hello");
    const cases = [
      "",
      "0x",
      "hello",
      `${ok}0`,
      `${ok.slice(0, 70)}zz${ok.slice(72)}`,
      `${ok}00`,
      ok.slice(0, -64),
      `0x${word(32)}`,
      `0x${word(32)}${word(33)}${"61".repeat(32)}`,
      `0x${word(2n ** 53n)}${word(5)}${"61".repeat(32)}`,
      `0x${word(2n ** 256n - 1n)}${word(5)}${"61".repeat(32)}`,
      `0x${word(32)}${word(2n ** 64n)}${"61".repeat(32)}`,
    ];
    for (const data of cases) expect(expectSameAsEthers(data), data.slice(0, 100)).to.deep.equal({ refused: true });
  });

  it("reads an upper-case 0X prefix, and offsets other than the usual 32, word-aligned or not, as ethers does", function () {
    expect(expectSameAsEthers(`0X${encode("hello").slice(2)}`)).to.deep.equal({ text: "hello" });
    for (const data of [`0x${word(1)}${"00".repeat(64)}`, `0x${word(33)}${word(0)}${"00".repeat(32)}`]) expectSameAsEthers(data);
    expect(expectSameAsEthers(`0x${word(64)}${word(0)}${word(2)}${"6869".padEnd(64, "0")}`)).to.deep.equal({ text: "hi" });
    expect(expectSameAsEthers(`0x${word(0)}${"00".repeat(32)}`)).to.deep.equal({ text: "" });
    expect(expectSameAsEthers(`0x${word(64)}${word(5)}${"00".repeat(32)}`)).to.deep.equal({ text: "" });
  });

  it("refuses malformed UTF-8 as ethers does (overlong, surrogates, truncated, past U+10FFFF), and agrees on 2,000 random strings", function () {
    for (const bytes of ["c0af", "eda080", "e282", "f4908080", "ff", "80"]) {
      const data = `0x${word(32)}${word(bytes.length / 2)}${bytes.padEnd(64, "0")}`;
      expect(expectSameAsEthers(data, bytes), bytes).to.deep.equal({ refused: true });
    }
    // Deterministic random bytes: short strings, many of them not UTF-8.
    let seed = 20261127;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256;
    let read = 0;
    for (let i = 0; i < 2000; i++) {
      const length = next() % 12;
      const bytes = Array.from({ length }, () => (next() < 128 ? next() % 128 : 0x80 + (next() % 128)).toString(16).padStart(2, "0")).join(
        "",
      );
      const data = `0x${word(32)}${word(length)}${bytes.padEnd(Math.ceil(length / 32) * 64 || 0, "0")}`;
      if ("text" in expectSameAsEthers(data, bytes)) read++;
    }
    // Both outcomes occur, so the comparison is not one-sided.
    expect(read).to.be.within(100, 1900);
  });
});

describe("decodeResult", function () {
  const iface = new Interface([
    "function name(bytes32 node) view returns (string)",
    "function addr(bytes32 node) view returns (address)",
    "function pair() view returns (string, uint256)",
  ]);

  it("reads a function returning one string with decodeAbiString: its refusal is decodeAbiString's", function () {
    expect(decodeResult(iface, "name", encode("alice.eth"))).to.equal("alice.eth");
    // ethers refuses this too, with an error of its own kind: the message says which decoder read it.
    expect(() => decodeResult(iface, "name", `0x${word(32)}`)).to.throw(TypeError, "a word runs past the result");
  });

  it("reads any other result as ethers does", function () {
    const address = "0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e";
    expect(decodeResult(iface, "addr", AbiCoder.defaultAbiCoder().encode(["address"], [address]))).to.equal(address);
    const pair = AbiCoder.defaultAbiCoder().encode(["string", "uint256"], ["x", 7n]);
    expect(decodeResult(iface, "pair", pair)).to.equal("x");
    expect(() => decodeResult(iface, "addr", "0x"))
      .to.throw()
      .that.has.property("code", "BAD_DATA");
  });
});
