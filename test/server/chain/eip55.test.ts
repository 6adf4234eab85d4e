import { expect } from "chai";
import { getAddress, hexlify, randomBytes } from "ethers";
import { eip55 } from "../../../server/chain/eip55";

describe("eip55", function () {
  it("gives the checksums of the EIP's own examples", function () {
    for (const address of [
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
      "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
      "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
      "0x52908400098527886E0F7030069857D2E4169EE7",
      "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
      "0xde709f2102306220921060314715629080e2fb77",
      "0x27b1fdb04752bbc536007a920d24acb045561c26",
    ])
      expect(eip55(address.toLowerCase())).to.equal(address);
  });

  it("agrees with ethers' getAddress on random addresses and on the all-digit and all-letter ones", function () {
    const addresses = Array.from({ length: 20_000 }, () => hexlify(randomBytes(20)));
    addresses.push(`0x${"0".repeat(40)}`, `0x${"f".repeat(40)}`, `0x${"a".repeat(40)}`, `0x${"9".repeat(40)}`);
    const disagreements = addresses.filter((address) => eip55(address) !== getAddress(address));
    expect(disagreements).to.deep.equal([]);
  });

  it("refuses a text that is not 0x and 40 digits long, which would be checksummed with the last address's digits", function () {
    expect(eip55("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")).to.equal("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
    expect(() => eip55("0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea")).to.throw(
      TypeError,
      "eip55: not an address: 0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea",
    );
    expect(() => eip55("")).to.throw(TypeError, "eip55: not an address: ");
    // Nothing of the refused texts is left behind: the next address is checksummed alone.
    expect(eip55("0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359")).to.equal("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359");
  });
});
