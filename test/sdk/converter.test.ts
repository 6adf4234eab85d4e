import { expect } from "chai";
import { conversionTransaction, createDataClient } from "../../sdk/src/index";
import { startTestApp } from "../helpers/app";
import { SuiteChain } from "../helpers/suite-chain";
import { expectRefusal } from "../helpers/refusal";
import { rejection, sdkRefusal } from "../helpers/sdk";
import { BIG_ID, converterFixture } from "../server/converter/fixture";

describe("SDK converter reads and its conversion transaction", function () {
  const HOLDER = 9;
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const f = await converterFixture(chain.provider, HOLDER);
    const t = chain.closesWith(
      await startTestApp({
        listen: true,
        env: { RPC_URL_LOCALHOST: chain.url, HEAD_CACHE_MS: "0", INDEXER: "false", CONVERTERS: `localhost:${f.addresses.converter}` },
      }),
    );
    return { f, client: createDataClient({ baseUrl: t.url, network: "localhost" }) };
  });

  it("reads a converter and its pairs, ids with all their digits", async function () {
    const { f, client } = suite();
    const converter = await client.converter(f.addresses.converter);
    expect(converter).to.deep.include({ converter: f.addresses.converter, alice: f.addresses.alice, bob: f.addresses.bob, paused: false });
    expect(converter.block).to.match(/^\d+$/);
    expect(converter.stock).to.deep.equal({ alice: "0", bob: "4" });
    const { side, pairs } = await client.converterPairs(f.addresses.converter, { aliceIds: [1, BIG_ID, "5"] });
    expect(side).to.equal("alice");
    expect(pairs.map((pair) => [pair.id, pair.counterpart, pair.convertible, pair.reason])).to.deep.equal([
      ["1", "1", true, null],
      [BIG_ID.toString(), BIG_ID.toString(), true, null],
      ["5", null, false, "not_paired"],
    ]);
  });

  it("builds the one transaction that converts, which any wallet sends", async function () {
    const { f, client, chain } = suite();
    const holder = await chain.signer(HOLDER);
    const tx = conversionTransaction({ token: f.addresses.alice, holder: holder.address, converter: f.addresses.converter, id: BIG_ID });
    expect(tx.to).to.equal(f.addresses.alice);
    expect(tx.data).to.equal(
      f.alice.interface.encodeFunctionData("safeTransferFrom(address,address,uint256)", [holder.address, f.addresses.converter, BIG_ID]),
    );
    await (await holder.sendTransaction(tx)).wait();
    expect(await f.bob.ownerOf(BIG_ID)).to.equal(holder.address);
    expect(await client.ownerOf(f.addresses.bob, BIG_ID)).to.equal(holder.address);
    expect(() => conversionTransaction({ token: "0x12", holder: holder.address, converter: f.addresses.converter, id: 1 })).to.throw(
      TypeError,
      /not a 0x address/,
    );
    expect(() =>
      conversionTransaction({ token: f.addresses.alice, holder: holder.address, converter: f.addresses.converter, id: 2n ** 256n }),
    ).to.throw(RangeError);
  });

  it("throws the route's refusal of an address that is not a converter as an ApiError", async function () {
    const { f, client } = suite();
    const error = await rejection(client.converter(f.addresses.alice));
    await expectRefusal(sdkRefusal(error), 404, "not_found");
  });
});
