import { expect } from "chai";
import { Wallet } from "ethers";
import { PreErc165NFT__factory, TestERC20__factory } from "../../../typechain-types";
import { fetchJson, startTestApp } from "../../helpers/app";
import { startHangingServer } from "../../helpers/hanging-server";
import { SuiteChain } from "../../helpers/suite-chain";
import { indexedTo } from "../../helpers/index-check";
import { startTcpProxy } from "../../helpers/tcp-proxy";
import { expectRefusal } from "../../helpers/refusal";

describe("data routes: approval, owner, block time, gas", function () {
  const BIG_ID = 2n ** 64n + 7n;
  const rpcCalls: string[] = [];
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const [holderSigner, operatorSigner] = await Promise.all([3, 4].map((i) => chain.signer(i)));
    const [holder, operator] = [holderSigner.address, operatorSigner.address];
    const alice = await chain.deployAlice();
    const aliceAddress = await alice.getAddress();
    await (await alice.mintBatch(holder, [1n, BIG_ID])).wait();
    await (await alice.connect(holderSigner).setApprovalForAll(operator, true)).wait();
    const token = await new TestERC20__factory(await chain.signer(0)).deploy();
    const erc20 = await token.getAddress();
    const url = new URL(chain.url);
    const proxy = chain.closesWith(await startTcpProxy(url.hostname, Number(url.port)));
    const hanging = chain.closesWith(await startHangingServer());
    const t = chain.closesWith(
      await startTestApp({
        env: {
          RPC_URL_LOCALHOST: proxy.url(chain.url),
          RPC_URL_SEPOLIA: hanging.url,
          RPC_TIMEOUT_MS: "500",
          FINALITY_DEPTH: "2",
          INDEXER: "false",
        },
      }),
    );
    t.app.networks.provider("localhost").on("debug", (event: { action: string; payload?: { method: string } }) => {
      if (event.action === "sendRpcPayload" && event.payload) rpcCalls.push(event.payload.method);
    });
    return { holder, operator, alice, aliceAddress, erc20, proxy, t };
  });

  const get = (path: string) => fetchJson(suite().t, path);
  /** Moves the app's clock past the head cache: the next read asks the node for its block. */
  const settle = () => {
    const { t } = suite();
    t.clock.advance(t.config.headCacheMs);
  };

  describe("GET /approval/:network/:assetContract/:owner/:operator", function () {
    it("answers true or false from isApprovedForAll", async function () {
      const { holder, operator, aliceAddress } = suite();
      expect(await get(`/approval/localhost/${aliceAddress}/${holder}/${operator}`)).to.deep.include({ status: 200, text: "true" });
      expect(await get(`/approval/localhost/${aliceAddress}/${operator}/${holder}`)).to.deep.include({ status: 200, text: "false" });
    });

    it("is a 400 not_erc721 for an account or an ERC-20 contract", async function () {
      const { holder, operator, erc20 } = suite();
      const eoa = await get(`/approval/localhost/${holder}/${holder}/${operator}`);
      await expectRefusal(eoa, 400, "not_erc721", {
        message: `${holder} has no contract code on localhost: it is an account, not an ERC-721 contract`,
      });
      const token = await get(`/approval/localhost/${erc20}/${holder}/${operator}`);
      await expectRefusal(token, 400, "not_erc721");
    });

    it("refuses malformed addresses, unknown networks and networks without a node", async function () {
      const { holder, operator, aliceAddress } = suite();
      await expectRefusal(await get(`/approval/localhost/0x12/${holder}/${operator}`), 400, "invalid_address", {
        message: "assetContract must be 0x followed by 40 hex digits",
      });
      await expectRefusal(
        await get(`/approval/localhost/${aliceAddress}/${holder.toLowerCase().replace("0x", "0X")}/${operator}`),
        400,
        "invalid_address",
      );
      await expectRefusal(await get(`/approval/ethereum/${aliceAddress}/${holder}/${operator}`), 400, "unknown_network");
      await expectRefusal(await get(`/approval/matic-mainnet/${aliceAddress}/${holder}/${operator}`), 503, "network_unavailable");
    });
  });

  describe("GET /:network/:assetContract/:id", function () {
    it("answers the checksummed owner, ids above 2^53 included", async function () {
      const { holder, aliceAddress } = suite();
      expect(await get(`/localhost/${aliceAddress.toLowerCase()}/1`)).to.deep.include({ status: 200, body: holder });
      expect((await get(`/localhost/${aliceAddress}/${BIG_ID}`)).body).to.equal(holder);
    });

    it("is a 404 for a token that does not exist", async function () {
      const { aliceAddress } = suite();
      const missing = await get(`/localhost/${aliceAddress}/99`);
      await expectRefusal(missing, 404, "not_found", { message: `Token 99 does not exist in ${aliceAddress} on localhost` });
    });

    it("is a 400 not_erc721 for an account or an ERC-20 contract", async function () {
      const { holder, erc20 } = suite();
      await expectRefusal(await get(`/localhost/${holder}/1`), 400, "not_erc721");
      await expectRefusal(await get(`/localhost/${erc20}/1`), 400, "not_erc721", {
        message: `${erc20} on localhost does not answer ownerOf: it is not an ERC-721 contract`,
      });
    });

    it("refuses malformed ids", async function () {
      const { aliceAddress } = suite();
      for (const id of ["-1", "1.5", "0x1", (2n ** 256n).toString()]) {
        await expectRefusal(await get(`/localhost/${aliceAddress}/${id}`), 400, "invalid_token_id", { label: id });
      }
    });

    it("is a 404 unknown route when the first segment is no network, a 503 for a network without a node", async function () {
      const { aliceAddress } = suite();
      const unknown = await get(`/ethereum/${aliceAddress}/1`);
      expect([unknown.status, unknown.body]).to.deep.equal([
        404,
        { error: "not_found", message: `Route GET /ethereum/${aliceAddress}/1 not found; the API is described at /docs` },
      ]);
      const unconfigured = await get(`/mainnet/${aliceAddress}/1`);
      expect([unconfigured.status, unconfigured.body.error]).to.deep.equal([503, "network_unavailable"]);
    });

    it("follows a transfer on the next block", async function () {
      const { holder, operator, alice, aliceAddress, chain } = suite();
      const owner = await get(`/localhost/${aliceAddress}/1`);
      expect(owner.body).to.equal(holder);
      await (await alice.connect(await chain.signer(3)).transferFrom(holder, operator, 1n)).wait();
      settle();
      expect((await get(`/localhost/${aliceAddress}/1`)).body).to.equal(operator);
    });

    it("is a 502 while the node is down, a 504 when it hangs, and answers again when it is back", async function () {
      const { aliceAddress, proxy } = suite();
      settle();
      proxy.cut();
      const down = await get(`/localhost/${aliceAddress}/${BIG_ID}`);
      await expectRefusal(down, 502, "upstream_error");
      proxy.restore();
      settle();
      expect((await get(`/localhost/${aliceAddress}/${BIG_ID}`)).status).to.equal(200);
      const slow = await get(`/sepolia/${aliceAddress}/1`);
      await expectRefusal(slow, 504, "upstream_timeout");
    });
  });

  describe("GET /block/:network/time/:num", function () {
    it("answers the block's timestamp in unix seconds", async function () {
      const { chain } = suite();
      const block = (await chain.provider.getBlock(1))!;
      expect(await get(`/block/localhost/time/1`)).to.deep.include({ status: 200, body: block.timestamp });
    });

    it("is a 404 beyond the head and a 400 for what is not a block number", async function () {
      const { chain } = suite();
      const head = await chain.provider.getBlockNumber();
      await expectRefusal(await get(`/block/localhost/time/${head + 1000}`), 404, "not_found");
      for (const num of ["-1", "latest", "1e3", "01"])
        expect((await get(`/block/localhost/time/${num}`)).body.error, num).to.equal("invalid_block_number");
    });

    it("keeps the timestamp of a final block: no second call to the node", async function () {
      const { chain } = suite();
      await chain.provider.send("hardhat_mine", ["0x5"]);
      settle();
      await get(`/block/localhost/time/2`);
      rpcCalls.length = 0;
      settle();
      expect((await get(`/block/localhost/time/2`)).status).to.equal(200);
      expect(rpcCalls).to.not.include("eth_getBlockByNumber");
    });
  });

  describe("GET /gas/:network/suggested-price", function () {
    it("answers eth_gasPrice in wei as a JSON number", async function () {
      const { chain } = suite();
      const price = BigInt(await chain.provider.send("eth_gasPrice", []));
      const answer = await get(`/gas/localhost/suggested-price`);
      expect(answer.status).to.equal(200);
      expect(BigInt(answer.text)).to.equal(price);
    });

    it("asks the node once per block however many requests come", async function () {
      const { chain } = suite();
      await chain.provider.send("hardhat_mine", ["0x1"]);
      settle();
      rpcCalls.length = 0;
      const answers = await Promise.all(Array.from({ length: 30 }, () => get(`/gas/localhost/suggested-price`)));
      expect(new Set(answers.map((a) => a.text)).size).to.equal(1);
      expect(rpcCalls.filter((m) => m === "eth_gasPrice")).to.have.length(1);
    });
  });

  it("a random EOA is not mistaken for a contract anywhere", async function () {
    const nobody = Wallet.createRandom().address;
    expect((await get(`/localhost/${nobody}/1`)).body.error).to.equal("not_erc721");
  });
});

describe("GET /:network/:assetContract/:id of a collection from before ERC-165", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const deployer = await chain.signer(0);
    const token = await new PreErc165NFT__factory(deployer).deploy();
    const legacy = await token.getAddress();
    await (await token.mint(deployer.address, 1n)).wait();
    // The shared node holds other tests' blocks: the index starts at the mint.
    const start = String(await chain.provider.getBlockNumber());
    const t = chain.closesWith(
      await startTestApp({
        env: {
          RPC_URL_LOCALHOST: chain.url,
          INDEXER_POLL_MS: "50",
          INDEXER_START_BLOCK_LOCALHOST: start,
          INDEXER_CONTRACTS_LOCALHOST: legacy,
        },
      }),
    );
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 60_000);
    return { deployer, legacy, t };
  });

  it("is a 404 for a missing id when the index holds the contract's transfers, though supportsInterface reverts", async function () {
    const { deployer, legacy, t } = suite();
    const owner = await t.fetch(`/localhost/${legacy}/1`);
    expect([owner.status, await owner.json()]).to.deep.equal([200, deployer.address]);
    const missing = await t.fetch(`/localhost/${legacy}/2`);
    expect([missing.status, await missing.json()]).to.deep.equal([
      404,
      { error: "not_found", message: `Token 2 does not exist in ${legacy} on localhost` },
    ]);
  });
});
