import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { dataLength, hashMessage, recoverAddress, Signature, Wallet } from "ethers";
import { verifyEoa, type VerifyResult } from "../../../server/chain/signatures";
import { highS } from "../../helpers/signers";
import { word } from "../../helpers/raw-logs";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
const HALF_N = N >> 1n;

/**
 * The EOA check as it was written on ethers' recoverAddress, kept here as the oracle: verifyEoa (libsecp256k1)
 * must give the very same answer, reason and message included, for every input.
 */
function verifyEoaWithEthers(address: string, hash: string, signature: string): VerifyResult {
  if (dataLength(signature) !== 65)
    return { ok: false, reason: "malformed_signature", message: `an EOA signature is 65 bytes, not ${dataLength(signature)}` };
  const r = `0x${signature.slice(2, 66)}`;
  const s = `0x${signature.slice(66, 130)}`;
  let v = parseInt(signature.slice(130, 132), 16);
  if (v === 0 || v === 1) v += 27;
  if (v !== 27 && v !== 28) return { ok: false, reason: "malformed_signature", message: "signature v must be 27 or 28" };
  if (BigInt(s) > HALF_N)
    return { ok: false, reason: "malformed_signature", message: "signature s is in the upper half (malleable high-s form)" };
  if (BigInt(r) === 0n || BigInt(s) === 0n)
    return { ok: false, reason: "malformed_signature", message: "signature r and s must not be zero" };
  let recovered: string;
  try {
    recovered = recoverAddress(hash, Signature.from({ r, s, v }));
  } catch {
    return { ok: false, reason: "invalid_signature", message: "the signature does not recover to an address" };
  }
  return recovered === address
    ? { ok: true, kind: "eoa" }
    : { ok: false, reason: "invalid_signature", message: "the signature was not made by this address" };
}

const hex = (bytes: number) => `0x${randomBytes(bytes).toString("hex")}`;

describe("verifyEoa (libsecp256k1) against ethers", function () {
  const wallet = new Wallet("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
  const message = "Wallet Login\nLog in to Demo via localhost.\n---\nq2mF1xYI3r8bTq0w2bVvJg";
  const hash = hashMessage(message);
  const good = wallet.signingKey.sign(hash).serialized;
  const r = good.slice(2, 66);
  const s = good.slice(66, 130);
  const v = good.slice(130);
  const otherV = v === "1b" ? "1c" : "1b";
  const compact = Signature.from(good).compactSerialized;

  const vectors: [string, string][] = [
    ["a valid signature (v 27/28)", good],
    ["the other recovery id (another address)", `0x${r}${s}${otherV}`],
    ["v as 0/1", `0x${r}${s}0${parseInt(v, 16) - 27}`],
    ["v as the other of 0/1", `0x${r}${s}0${parseInt(otherV, 16) - 27}`],
    ["v = 29", `0x${r}${s}1d`],
    ["v = 26", `0x${r}${s}1a`],
    ["v = 2", `0x${r}${s}02`],
    ["v = 255", `0x${r}${s}ff`],
    ["high s", highS(good)],
    ["s = n/2 (the largest low s)", `0x${r}${word(HALF_N)}${v}`],
    ["s = n/2 + 1", `0x${r}${word(HALF_N + 1n)}${v}`],
    ["s = n - 1", `0x${r}${word(N - 1n)}${v}`],
    ["s = 1", `0x${r}${word(1n)}${v}`],
    ["r = 0", `0x${word(0n)}${s}${v}`],
    ["s = 0", `0x${r}${word(0n)}${v}`],
    ["r = s = 0", `0x${word(0n)}${word(0n)}${v}`],
    ["r = n", `0x${word(N)}${s}${v}`],
    ["r = n + 1", `0x${word(N + 1n)}${s}${v}`],
    ["r = p - 1", `0x${word(P - 1n)}${s}${v}`],
    ["r = p", `0x${word(P)}${s}${v}`],
    ["r = 2^256 - 1", `0x${"f".repeat(64)}${s}${v}`],
    ["r = n - 1", `0x${word(N - 1n)}${s}${v}`],
    ["r = 1", `0x${word(1n)}${s}${v}`],
    ["r = 5 (not the x of a curve point)", `0x${word(5n)}${s}${v}`],
    ["EIP-2098 compact (64 bytes)", compact],
    ["64 bytes r‖s", `0x${r}${s}`],
    ["66 bytes", `${good}00`],
    ["130 bytes (two signatures)", `${good}${good.slice(2)}`],
    ["1 byte", "0x1b"],
    ["empty", "0x"],
    ["upper-case hex", `0x${good.slice(2).toUpperCase()}`],
  ];

  for (const [name, signature] of vectors) {
    it(`answers as ethers for ${name}`, function () {
      const expected = verifyEoaWithEthers(wallet.address, hash, signature);
      expect(verifyEoa(wallet.address, hash, signature)).to.deep.equal(expected);
    });
  }

  it("accepts the valid signature and refuses the compact and high-s forms (the table's anchors)", function () {
    expect(verifyEoa(wallet.address, hash, good)).to.deep.equal({ ok: true, kind: "eoa" });
    expect(verifyEoa(wallet.address, hash, compact)).to.include({ ok: false, reason: "malformed_signature" });
    expect(verifyEoa(wallet.address, hash, highS(good))).to.include({ ok: false, reason: "malformed_signature" });
    expect(verifyEoa(wallet.address, hash, `0x${word(N)}${s}${v}`)).to.include({ ok: false, reason: "invalid_signature" });
  });

  it("answers as ethers for an address in lower case and another address", function () {
    for (const address of [wallet.address.toLowerCase(), Wallet.createRandom().address]) {
      expect(verifyEoa(address, hash, good)).to.deep.equal(verifyEoaWithEthers(address, hash, good));
    }
  });

  it("answers as ethers for 300 random keys, messages and corrupted signatures", function () {
    for (let i = 0; i < 300; i++) {
      const key = new Wallet(hex(32));
      const digest = hashMessage(hex(1 + (i % 64)));
      let signature = key.signingKey.sign(digest).serialized;
      if (i % 3 === 1) {
        // One byte of r, s or v changed.
        const at = 2 + 2 * Math.floor(Math.random() * 65);
        signature = `${signature.slice(0, at)}${randomBytes(1).toString("hex")}${signature.slice(at + 2)}`;
      } else if (i % 3 === 2) {
        signature = `${hex(64)}${["1b", "1c", "00", "01"][i % 4]}`;
      }
      for (const address of [key.address, wallet.address]) {
        expect(verifyEoa(address, digest, signature), signature).to.deep.equal(verifyEoaWithEthers(address, digest, signature));
      }
    }
  });
});
