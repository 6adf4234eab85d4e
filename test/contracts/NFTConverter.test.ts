import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { expect } from "chai";
import type { ContractTransactionResponse, Interface } from "ethers";
import { ethers } from "hardhat";
import type { NFTConverter } from "../../typechain-types";
import { shouldBehaveLikeAccessControlled } from "./behaviours/access-control";

const MAX = ethers.MaxUint256;
const SAFE = "safeTransferFrom(address,address,uint256)" as const;
const SAFE_WITH_DATA = "safeTransferFrom(address,address,uint256,bytes)" as const;
const STOCK_DATA = "0x01";

async function fixture() {
  const [admin, operator, user, other, stranger] = await ethers.getSigners();
  const alice = await ethers.deployContract("AliceNFT", [admin.address]);
  const bob = await ethers.deployContract("BobNFT", [admin.address]);
  const converter = await ethers.deployContract("NFTConverter", [alice, bob, admin.address]);
  const OPERATOR_ROLE = await converter.OPERATOR_ROLE();
  await converter.grantRole(OPERATOR_ROLE, operator.address);
  const foreign = await ethers.deployContract("ForeignNFT", [admin.address]);

  // The user holds Alice 0..3; the converter's stock is Bob 0..9 (minted straight into it: no callback).
  await alice.mintBatch(user.address, [0n, 1n, 2n, 3n]);
  await bob.mintRange(converter, 0n, 10n);
  // Pairs: Alice 0 ↔ Bob 5 (id 0 on the Alice side), Alice 1 ↔ Bob 0 (id 0 on the Bob side), Alice 2 ↔ Bob 2.
  await converter.connect(operator).registerPairs([0n, 1n, 2n], [5n, 0n, 2n]);
  return { admin, operator, user, other, stranger, alice, bob, converter, foreign, OPERATOR_ROLE };
}

type Fixture = Awaited<ReturnType<typeof fixture>>;

// The two helpers below add to the loaded fixture instead of being fixtures of their own: a fixture derived from
// another has to redeploy everything (loadFixture does not nest), and does it again each time a test goes back to
// the base fixture in between.

/** Adds a contract wallet holding Alice 40 and 41, paired with Bob 8 and 9. */
async function withHolder(f: Fixture) {
  const holder = await ethers.deployContract("HostileHolder", [f.converter]);
  await f.alice.connect(f.admin).mintBatch(holder, [40n, 41n]);
  await f.converter.connect(f.operator).registerPairs([40n, 41n], [8n, 9n]);
  return { ...f, holder };
}

/** Has the user convert Alice 2, so that they hold Bob 2 and the converter Alice 2, and gives them Bob 50, unpaired. */
async function readyToConvertBack(f: Fixture) {
  await f.alice.connect(f.user)[SAFE](f.user.address, f.converter, 2n);
  await f.bob.connect(f.admin).mint(f.user.address, 50n);
  return f;
}

/**
 * The rules every way of converting follows, from `from` to the other token: `convert(f, id)` has the user convert
 * their `from` token `id` that way. Token 2 is paired on both sides and its counterpart is in stock; the user's other
 * `from` token (Alice 3, Bob 50) is unpaired.
 */
function shouldBehaveLikeConversion(from: "Alice" | "Bob", convert: (f: Fixture, id: bigint) => Promise<ContractTransactionResponse>) {
  const reverse = from === "Bob";
  const start = async () => {
    const f = await loadFixture(fixture);
    return reverse ? readyToConvertBack(f) : f;
  };
  const unpaired = reverse ? 50n : 3n;
  const tokens = (f: Fixture) => (reverse ? { from: f.bob, to: f.alice } : { from: f.alice, to: f.bob });
  const event = reverse ? "ConvertedBobToAlice" : "ConvertedAliceToBob";

  it(`sends the paired ${reverse ? "Alice" : "Bob"} token, keeps the ${from} token and emits ${event}`, async function () {
    const f = await start();
    await expect(convert(f, 2n)).to.emit(f.converter, event).withArgs(f.user.address, 2n, 2n);
    expect(await tokens(f).to.ownerOf(2n)).to.equal(f.user.address);
    expect(await tokens(f).from.ownerOf(2n)).to.equal(await f.converter.getAddress());
  });

  it("reverts when paused", async function () {
    const f = await start();
    await f.converter.connect(f.operator).pause();
    await expect(convert(f, 2n)).to.be.revertedWithCustomError(f.converter, "EnforcedPause");
  });

  it(`reverts for an unpaired ${from} id`, async function () {
    const f = await start();
    await expect(convert(f, unpaired)).to.be.revertedWithCustomError(f.converter, `${from}NotPaired`).withArgs(unpaired);
  });

  it("reverts when the counterpart is not in stock", async function () {
    const f = await start();
    // Pairs the unpaired token with id 42 of the other side, which nobody holds.
    const [aliceIds, bobIds] = reverse ? [[42n], [unpaired]] : [[unpaired], [42n]];
    await f.converter.connect(f.operator).registerPairs(aliceIds, bobIds);
    await expect(convert(f, unpaired))
      .to.be.revertedWithCustomError(f.converter, "OutOfStock")
      .withArgs(await tokens(f).to.getAddress(), 42n);
  });

  if (reverse) {
    it("reverts when reverse conversion is off, and reports a pause first", async function () {
      const f = await start();
      await f.converter.connect(f.admin).setReverseConversion(false);
      await expect(convert(f, 2n)).to.be.revertedWithCustomError(f.converter, "ReverseConversionDisabled");
      await f.converter.connect(f.operator).pause();
      await expect(convert(f, 2n)).to.be.revertedWithCustomError(f.converter, "EnforcedPause");
    });
  }
}

describe("NFTConverter", function () {
  describe("constructor", function () {
    it("keeps Alice and Bob, the admin and a one-day admin delay; reverse conversion on, not paused", async function () {
      const { admin, alice, bob, converter } = await loadFixture(fixture);
      expect(await converter.alice()).to.equal(await alice.getAddress());
      expect(await converter.bob()).to.equal(await bob.getAddress());
      expect(await converter.aliceContract()).to.equal(await alice.getAddress());
      expect(await converter.bobContract()).to.equal(await bob.getAddress());
      expect(await converter.defaultAdmin()).to.equal(admin.address);
      expect(await converter.defaultAdminDelay()).to.equal(24n * 3600n);
      expect(await converter.reverseConversionEnabled()).to.equal(true);
      expect(await converter.paused()).to.equal(false);
    });

    it("does not make the admin an operator", async function () {
      const { admin, converter, OPERATOR_ROLE } = await loadFixture(fixture);
      expect(await converter.hasRole(OPERATOR_ROLE, admin.address)).to.equal(false);
    });

    it("reverts when Alice or Bob is the zero address, or both are the same", async function () {
      const { admin, alice, converter } = await loadFixture(fixture);
      const factory = await ethers.getContractFactory("NFTConverter");
      for (const [a, b] of [
        [ethers.ZeroAddress, await alice.getAddress()],
        [await alice.getAddress(), ethers.ZeroAddress],
        [await alice.getAddress(), await alice.getAddress()],
      ]) {
        await expect(factory.deploy(a, b, admin.address))
          .to.be.revertedWithCustomError(converter, "InvalidTokens")
          .withArgs(a, b);
      }
    });

    it("reverts when the admin is the zero address", async function () {
      const { alice, bob, converter } = await loadFixture(fixture);
      const factory = await ethers.getContractFactory("NFTConverter");
      await expect(factory.deploy(alice, bob, ethers.ZeroAddress)).to.be.revertedWithCustomError(
        converter,
        "AccessControlInvalidDefaultAdmin",
      );
    });
  });

  // Each function is called with arguments that succeed for its role's holder, in the fixture's state: Bob 9 is stock
  // of no pair, Alice 0 is paired and not converted.
  shouldBehaveLikeAccessControlled({
    fixture,
    contract: (f) => f.converter,
    holders: (f) => ({ DEFAULT_ADMIN_ROLE: f.admin, OPERATOR_ROLE: f.operator }),
    outsider: (f) => f.user,
    restricted: [
      { name: "registerPairs", role: "OPERATOR_ROLE", call: (f, caller) => f.converter.connect(caller).registerPairs([10n], [20n]) },
      { name: "draftAliceTokens", role: "OPERATOR_ROLE", call: (f, caller) => f.converter.connect(caller).draftAliceTokens([10n], [20n]) },
      { name: "draftBobTokens", role: "OPERATOR_ROLE", call: (f, caller) => f.converter.connect(caller).draftBobTokens([20n], [10n]) },
      { name: "draftAliceToken", role: "OPERATOR_ROLE", call: (f, caller) => f.converter.connect(caller).draftAliceToken(10n, 20n) },
      { name: "draftBobToken", role: "OPERATOR_ROLE", call: (f, caller) => f.converter.connect(caller).draftBobToken(20n, 10n) },
      { name: "unregisterPairs", role: "OPERATOR_ROLE", call: (f, caller) => f.converter.connect(caller).unregisterPairs([0n]) },
      {
        name: "stock",
        role: "OPERATOR_ROLE",
        prepare: async ({ admin, operator, alice, converter }) => {
          await alice.connect(admin).mint(operator.address, 70n);
          await alice.connect(operator).setApprovalForAll(converter, true);
        },
        call: (f, caller) => f.converter.connect(caller).stock(f.alice, [70n]),
      },
      {
        name: "withdrawStock",
        role: "OPERATOR_ROLE",
        call: (f, caller) => f.converter.connect(caller).withdrawStock(f.bob, [9n], f.other.address),
      },
      { name: "pause", role: "OPERATOR_ROLE", call: (f, caller) => f.converter.connect(caller).pause() },
      {
        name: "unpause",
        role: "OPERATOR_ROLE",
        prepare: ({ operator, converter }) => converter.connect(operator).pause(),
        call: (f, caller) => f.converter.connect(caller).unpause(),
      },
      {
        name: "setReverseConversion",
        role: "DEFAULT_ADMIN_ROLE",
        call: (f, caller) => f.converter.connect(caller).setReverseConversion(false),
      },
      {
        name: "recoverToken",
        role: "DEFAULT_ADMIN_ROLE",
        call: (f, caller) => f.converter.connect(caller).recoverToken(f.bob, 9n, f.other.address),
      },
      { name: "addOperator", role: "DEFAULT_ADMIN_ROLE", call: (f, caller) => f.converter.connect(caller).addOperator(f.other.address) },
      {
        name: "removeOperator",
        role: "DEFAULT_ADMIN_ROLE",
        call: (f, caller) => f.converter.connect(caller).removeOperator(f.operator.address),
      },
      {
        name: "grantRole",
        title: "grantRole(OPERATOR_ROLE)",
        role: "DEFAULT_ADMIN_ROLE",
        call: (f, caller) => f.converter.connect(caller).grantRole(f.OPERATOR_ROLE, f.other.address),
      },
      {
        name: "revokeRole",
        title: "revokeRole(OPERATOR_ROLE)",
        role: "DEFAULT_ADMIN_ROLE",
        call: (f, caller) => f.converter.connect(caller).revokeRole(f.OPERATOR_ROLE, f.operator.address),
      },
      {
        name: "beginDefaultAdminTransfer",
        role: "DEFAULT_ADMIN_ROLE",
        call: (f, caller) => f.converter.connect(caller).beginDefaultAdminTransfer(f.other.address),
      },
      {
        name: "cancelDefaultAdminTransfer",
        role: "DEFAULT_ADMIN_ROLE",
        prepare: ({ admin, other, converter }) => converter.connect(admin).beginDefaultAdminTransfer(other.address),
        call: (f, caller) => f.converter.connect(caller).cancelDefaultAdminTransfer(),
      },
      {
        name: "changeDefaultAdminDelay",
        role: "DEFAULT_ADMIN_ROLE",
        call: (f, caller) => f.converter.connect(caller).changeDefaultAdminDelay(2n * 24n * 3600n),
      },
      {
        name: "rollbackDefaultAdminDelay",
        role: "DEFAULT_ADMIN_ROLE",
        prepare: ({ admin, converter }) => converter.connect(admin).changeDefaultAdminDelay(2n * 24n * 3600n),
        call: (f, caller) => f.converter.connect(caller).rollbackDefaultAdminDelay(),
      },
    ],
    open: [
      // Conversions are for everyone; onERC721Received accepts only Alice and Bob, and stock deposits only from
      // operators (NotOperator), both tested with the conversions.
      "onERC721Received",
      "convertFromAliceToBob",
      "convertFromBobToAlice",
      // Acts on the caller's own roles only.
      "renounceRole",
      // Only the pending admin, after the delay: tested with the admin transfer.
      "acceptDefaultAdminTransfer",
    ],
  });

  // registerPairs and the predecessor's batch drafts share one set of rules; `register` takes (aliceIds, bobIds) for
  // each, whatever the order of its own arguments.
  const batchRegistrations = [
    { name: "registerPairs", register: (c: NFTConverter, aliceIds: bigint[], bobIds: bigint[]) => c.registerPairs(aliceIds, bobIds) },
    { name: "draftAliceTokens", register: (c: NFTConverter, aliceIds: bigint[], bobIds: bigint[]) => c.draftAliceTokens(aliceIds, bobIds) },
    { name: "draftBobTokens", register: (c: NFTConverter, aliceIds: bigint[], bobIds: bigint[]) => c.draftBobTokens(bobIds, aliceIds) },
  ];
  for (const { name, register } of batchRegistrations) {
    describe(name, function () {
      it("registers each pair in both directions and emits PairRegistered", async function () {
        const { operator, converter } = await loadFixture(fixture);
        await expect(register(converter.connect(operator), [10n, 11n], [20n, 21n]))
          .to.emit(converter, "PairRegistered")
          .withArgs(10n, 20n)
          .and.to.emit(converter, "PairRegistered")
          .withArgs(11n, 21n);
        expect(await converter.bobIdOf(11n)).to.deep.equal([true, 21n]);
        expect(await converter.aliceIdOf(20n)).to.deep.equal([true, 10n]);
      });

      it("pairs id 0 on either side, and ids of tokens the converter does not hold (stock can come later)", async function () {
        const { operator, converter } = await loadFixture(fixture);
        await converter.connect(operator).unregisterPairs([0n, 1n]); // frees Alice 0 and Bob 0
        await register(converter.connect(operator), [0n, 77n], [77n, 0n]);
        expect(await converter.bobIdOf(0n)).to.deep.equal([true, 77n]);
        expect(await converter.aliceIdOf(0n)).to.deep.equal([true, 77n]);
      });

      it("pairs the largest id it supports, type(uint256).max - 1", async function () {
        const { operator, converter } = await loadFixture(fixture);
        await register(converter.connect(operator), [MAX - 1n], [MAX - 1n]);
        expect(await converter.bobIdOf(MAX - 1n)).to.deep.equal([true, MAX - 1n]);
      });

      it("reverts when the batch is empty", async function () {
        const { operator, converter } = await loadFixture(fixture);
        await expect(register(converter.connect(operator), [], [])).to.be.revertedWithCustomError(converter, "EmptyBatch");
      });

      it("reverts when the lengths differ", async function () {
        const { operator, converter } = await loadFixture(fixture);
        await expect(register(converter.connect(operator), [10n, 11n], [20n]))
          .to.be.revertedWithCustomError(converter, "LengthMismatch")
          .withArgs(2n, 1n);
      });

      it("reverts when an Alice id is already paired, registering nothing of the batch", async function () {
        const { operator, converter } = await loadFixture(fixture);
        await expect(register(converter.connect(operator), [10n, 2n], [20n, 30n]))
          .to.be.revertedWithCustomError(converter, "AliceAlreadyPaired")
          .withArgs(2n);
        expect(await converter.bobIdOf(10n)).to.deep.equal([false, 0n]);
      });

      it("reverts when a Bob id is already paired", async function () {
        const { operator, converter } = await loadFixture(fixture);
        await expect(register(converter.connect(operator), [10n], [0n]))
          .to.be.revertedWithCustomError(converter, "BobAlreadyPaired")
          .withArgs(0n);
      });

      it("reverts when the same id appears twice in one batch", async function () {
        const { operator, converter } = await loadFixture(fixture);
        await expect(register(converter.connect(operator), [10n, 10n], [20n, 21n]))
          .to.be.revertedWithCustomError(converter, "AliceAlreadyPaired")
          .withArgs(10n);
        await expect(register(converter.connect(operator), [10n, 11n], [20n, 20n]))
          .to.be.revertedWithCustomError(converter, "BobAlreadyPaired")
          .withArgs(20n);
      });

      it("reverts when an id is type(uint256).max", async function () {
        const { operator, converter } = await loadFixture(fixture);
        await expect(register(converter.connect(operator), [MAX], [20n]))
          .to.be.revertedWithCustomError(converter, "UnsupportedTokenId")
          .withArgs(MAX);
        await expect(register(converter.connect(operator), [10n], [MAX]))
          .to.be.revertedWithCustomError(converter, "UnsupportedTokenId")
          .withArgs(MAX);
      });
    });
  }

  // The two single-pair drafts differ only in argument order: `draft` takes (aliceId, bobId) for both.
  const singleDrafts = [
    {
      name: "draftAliceToken",
      first: "Alice",
      draft: (c: NFTConverter, aliceId: bigint, bobId: bigint) => c.draftAliceToken(aliceId, bobId),
    },
    { name: "draftBobToken", first: "Bob", draft: (c: NFTConverter, aliceId: bigint, bobId: bigint) => c.draftBobToken(bobId, aliceId) },
  ];
  for (const { name, first, draft } of singleDrafts) {
    describe(name, function () {
      it(`registers one pair, ${first} id first, and emits PairRegistered`, async function () {
        const { operator, converter } = await loadFixture(fixture);
        await expect(draft(converter.connect(operator), 10n, 20n))
          .to.emit(converter, "PairRegistered")
          .withArgs(10n, 20n);
        expect(await converter.bobIdOf(10n)).to.deep.equal([true, 20n]);
        expect(await converter.aliceIdOf(20n)).to.deep.equal([true, 10n]);
      });

      it("reverts when either id is already paired", async function () {
        const { operator, converter } = await loadFixture(fixture);
        await expect(draft(converter.connect(operator), 0n, 20n))
          .to.be.revertedWithCustomError(converter, "AliceAlreadyPaired")
          .withArgs(0n);
        await expect(draft(converter.connect(operator), 10n, 0n))
          .to.be.revertedWithCustomError(converter, "BobAlreadyPaired")
          .withArgs(0n);
      });

      it("reverts when an id is type(uint256).max", async function () {
        const { operator, converter } = await loadFixture(fixture);
        await expect(draft(converter.connect(operator), MAX, 20n))
          .to.be.revertedWithCustomError(converter, "UnsupportedTokenId")
          .withArgs(MAX);
        await expect(draft(converter.connect(operator), 10n, MAX))
          .to.be.revertedWithCustomError(converter, "UnsupportedTokenId")
          .withArgs(MAX);
      });
    });
  }

  describe("unregisterPairs", function () {
    it("removes a pair in both directions and emits PairUnregistered; the ids can be paired again", async function () {
      const { operator, converter } = await loadFixture(fixture);
      await expect(converter.connect(operator).unregisterPairs([0n]))
        .to.emit(converter, "PairUnregistered")
        .withArgs(0n, 5n);
      expect(await converter.bobIdOf(0n)).to.deep.equal([false, 0n]);
      expect(await converter.aliceIdOf(5n)).to.deep.equal([false, 0n]);
      await converter.connect(operator).registerPairs([0n], [6n]);
      expect(await converter.bobIdOf(0n)).to.deep.equal([true, 6n]);
    });

    it("unregisters a pair that was converted and converted back", async function () {
      const { operator, user, alice, bob, converter } = await loadFixture(fixture);
      await alice.connect(user)[SAFE](user.address, converter, 2n);
      await bob.connect(user)[SAFE](user.address, converter, 2n);
      await expect(converter.connect(operator).unregisterPairs([2n]))
        .to.emit(converter, "PairUnregistered")
        .withArgs(2n, 2n);
    });

    it("reverts when the pair was converted (the converter holds its Alice token)", async function () {
      const { operator, user, alice, converter } = await loadFixture(fixture);
      await alice.connect(user)[SAFE](user.address, converter, 2n);
      await expect(converter.connect(operator).unregisterPairs([2n]))
        .to.be.revertedWithCustomError(converter, "PairConverted")
        .withArgs(2n, 2n);
    });

    it("reverts when the Alice id is not paired", async function () {
      const { operator, converter } = await loadFixture(fixture);
      await expect(converter.connect(operator).unregisterPairs([2n, 99n]))
        .to.be.revertedWithCustomError(converter, "AliceNotPaired")
        .withArgs(99n);
      expect(await converter.bobIdOf(2n)).to.deep.equal([true, 2n]);
    });

    it("reverts when the batch is empty", async function () {
      const { operator, converter } = await loadFixture(fixture);
      await expect(converter.connect(operator).unregisterPairs([])).to.be.revertedWithCustomError(converter, "EmptyBatch");
    });
  });

  describe("getBobTokenID and getAliceTokenID", function () {
    it("answer the paired id", async function () {
      const { converter } = await loadFixture(fixture);
      expect(await converter.getBobTokenID(0n)).to.equal(5n);
      expect(await converter.getAliceTokenID(5n)).to.equal(0n);
      expect(await converter.getAliceTokenID(2n)).to.equal(2n);
    });

    it("answer 0 for an unpaired id, as the predecessor did", async function () {
      const { converter } = await loadFixture(fixture);
      expect(await converter.getBobTokenID(99n)).to.equal(0n);
      expect(await converter.getAliceTokenID(99n)).to.equal(0n);
    });
  });

  describe("bobIdOf and aliceIdOf", function () {
    it("tell 'not paired' apart from a pair with id 0", async function () {
      const { converter } = await loadFixture(fixture);
      expect(await converter.aliceIdOf(0n)).to.deep.equal([true, 1n]);
      expect(await converter.bobIdOf(1n)).to.deep.equal([true, 0n]);
      expect(await converter.bobIdOf(99n)).to.deep.equal([false, 0n]);
      expect(await converter.aliceIdOf(99n)).to.deep.equal([false, 0n]);
    });
  });

  describe("onERC721Received: conversion by safeTransferFrom (one transaction, no approval)", function () {
    it("converts pairs with id 0 on either side", async function () {
      const { user, alice, bob, converter } = await loadFixture(fixture);
      await alice.connect(user)[SAFE](user.address, converter, 0n);
      expect(await bob.ownerOf(5n)).to.equal(user.address);
      await alice.connect(user)[SAFE](user.address, converter, 1n);
      expect(await bob.ownerOf(0n)).to.equal(user.address);
    });

    it("sends the counterpart to the token's owner when an approved operator moved it", async function () {
      const { user, other, alice, bob, converter } = await loadFixture(fixture);
      await alice.connect(user).setApprovalForAll(other.address, true);
      await expect(alice.connect(other)[SAFE](user.address, converter, 2n))
        .to.emit(converter, "ConvertedAliceToBob")
        .withArgs(user.address, 2n, 2n);
      expect(await bob.ownerOf(2n)).to.equal(user.address);
    });

    it("reverts when called by anything but Alice or Bob", async function () {
      const { admin, user, converter, foreign } = await loadFixture(fixture);
      await expect(converter.connect(user).onERC721Received(user.address, user.address, 2n, "0x"))
        .to.be.revertedWithCustomError(converter, "UnsupportedToken")
        .withArgs(user.address);
      await foreign.connect(admin).mint(user.address, 2n);
      await expect(foreign.connect(user)[SAFE](user.address, converter, 2n))
        .to.be.revertedWithCustomError(converter, "UnsupportedToken")
        .withArgs(await foreign.getAddress());
    });

    it("takes a token sent with data by an operator into stock, converting nothing", async function () {
      const { admin, operator, alice, converter } = await loadFixture(fixture);
      await alice.connect(admin).mint(operator.address, 60n);
      await expect(alice.connect(operator)[SAFE_WITH_DATA](operator.address, converter, 60n, STOCK_DATA)).not.to.emit(
        converter,
        "ConvertedAliceToBob",
      );
      expect(await alice.ownerOf(60n)).to.equal(await converter.getAddress());
    });

    it("reverts a stock deposit by an account that is not an operator", async function () {
      const { user, alice, converter } = await loadFixture(fixture);
      await expect(alice.connect(user)[SAFE_WITH_DATA](user.address, converter, 3n, STOCK_DATA))
        .to.be.revertedWithCustomError(converter, "NotOperator")
        .withArgs(user.address);
    });

    it("reverts with the recipient's reason when the recipient refuses the counterpart", async function () {
      const { bob, holder } = await withHolder(await loadFixture(fixture));
      await holder.setMode(1, 0n); // Refuse
      await expect(holder.convert(40n))
        .to.be.revertedWithCustomError(bob, "ERC721InvalidReceiver")
        .withArgs(await holder.getAddress());
    });

    it("reverts a re-entry from the recipient's callback, moving nothing", async function () {
      const { alice, bob, converter, holder } = await withHolder(await loadFixture(fixture));
      await holder.setMode(2, 0n); // ConvertBackInside: sends the Bob token back while receiving it
      await expect(holder.convert(40n)).to.be.revertedWithCustomError(converter, "ReentrancyGuardReentrantCall");
      expect(await alice.ownerOf(40n)).to.equal(await holder.getAddress());
      expect(await bob.ownerOf(8n)).to.equal(await converter.getAddress());
    });

    it("works for a well-behaved contract wallet", async function () {
      const { bob, holder } = await withHolder(await loadFixture(fixture));
      await holder.convert(40n);
      expect(await bob.ownerOf(8n)).to.equal(await holder.getAddress());
    });

    describe("Alice → Bob", function () {
      shouldBehaveLikeConversion("Alice", (f, id) => f.alice.connect(f.user)[SAFE](f.user.address, f.converter, id));
    });

    describe("Bob → Alice", function () {
      shouldBehaveLikeConversion("Bob", (f, id) => f.bob.connect(f.user)[SAFE](f.user.address, f.converter, id));
    });
  });

  describe("convertFromAliceToBob", function () {
    shouldBehaveLikeConversion("Alice", async (f, id) => {
      await f.alice.connect(f.user).approve(f.converter, id);
      return f.converter.connect(f.user).convertFromAliceToBob(id);
    });

    it("reverts without an approval", async function () {
      const { user, alice, converter } = await loadFixture(fixture);
      await expect(converter.connect(user).convertFromAliceToBob(2n)).to.be.revertedWithCustomError(alice, "ERC721InsufficientApproval");
    });

    it("reverts when the caller does not own the token", async function () {
      const { user, other, alice, converter } = await loadFixture(fixture);
      await alice.connect(user).setApprovalForAll(converter, true);
      await expect(converter.connect(other).convertFromAliceToBob(2n)).to.be.revertedWithCustomError(alice, "ERC721IncorrectOwner");
    });

    it("reverts a re-entry from the recipient's callback", async function () {
      const { converter, holder } = await withHolder(await loadFixture(fixture));
      await holder.approveConverter();
      await holder.setMode(3, 41n); // ConvertAnotherInside: converts Alice 41 while receiving Bob 8
      await expect(holder.convert(40n)).to.be.revertedWithCustomError(converter, "ReentrancyGuardReentrantCall");
    });
  });

  describe("convertFromBobToAlice", function () {
    shouldBehaveLikeConversion("Bob", async (f, id) => {
      await f.bob.connect(f.user).approve(f.converter, id);
      return f.converter.connect(f.user).convertFromBobToAlice(id);
    });
  });
  describe("stock", function () {
    it("pulls an operator's tokens into stock after approval", async function () {
      const { admin, operator, alice, converter } = await loadFixture(fixture);
      await alice.connect(admin).mintBatch(operator.address, [70n, 71n]);
      await alice.connect(operator).setApprovalForAll(converter, true);
      await converter.connect(operator).stock(alice, [70n, 71n]);
      expect(await alice.ownerOf(71n)).to.equal(await converter.getAddress());
    });

    it("reverts for a token that is neither Alice nor Bob", async function () {
      const { operator, converter, foreign } = await loadFixture(fixture);
      await expect(converter.connect(operator).stock(foreign, [1n]))
        .to.be.revertedWithCustomError(converter, "UnsupportedToken")
        .withArgs(await foreign.getAddress());
    });
  });

  describe("withdrawStock", function () {
    it("sends stock that belongs to no pair and emits StockWithdrawn", async function () {
      const { operator, bob, converter } = await loadFixture(fixture);
      await expect(converter.connect(operator).withdrawStock(bob, [8n, 9n], operator.address))
        .to.emit(converter, "StockWithdrawn")
        .withArgs(await bob.getAddress(), 9n, operator.address);
      expect(await bob.ownerOf(8n)).to.equal(operator.address);
    });

    it("sends the stock of a pair once it is unregistered", async function () {
      const { operator, bob, converter } = await loadFixture(fixture);
      await converter.connect(operator).unregisterPairs([2n]);
      await converter.connect(operator).withdrawStock(bob, [2n], operator.address);
      expect(await bob.ownerOf(2n)).to.equal(operator.address);
    });

    it("reverts for stock of a registered pair", async function () {
      const { operator, bob, converter } = await loadFixture(fixture);
      await expect(converter.connect(operator).withdrawStock(bob, [9n, 5n], operator.address))
        .to.be.revertedWithCustomError(converter, "TokenOfRegisteredPair")
        .withArgs(await bob.getAddress(), 5n);
    });

    it("reverts for a token that is neither Alice nor Bob", async function () {
      const { operator, converter, foreign } = await loadFixture(fixture);
      await expect(converter.connect(operator).withdrawStock(foreign, [1n], operator.address))
        .to.be.revertedWithCustomError(converter, "UnsupportedToken")
        .withArgs(await foreign.getAddress());
    });
  });

  describe("recoverToken", function () {
    it("returns a foreign token sent by plain transferFrom and emits TokenRecovered", async function () {
      const { admin, user, converter, foreign } = await loadFixture(fixture);
      await foreign.connect(admin).mint(user.address, 1n);
      await foreign.connect(user).transferFrom(user.address, converter, 1n);
      await expect(converter.connect(admin).recoverToken(foreign, 1n, user.address))
        .to.emit(converter, "TokenRecovered")
        .withArgs(await foreign.getAddress(), 1n, user.address);
      expect(await foreign.ownerOf(1n)).to.equal(user.address);
    });

    it("returns an Alice token of no pair sent by plain transferFrom", async function () {
      const { admin, user, alice, converter } = await loadFixture(fixture);
      await alice.connect(user).transferFrom(user.address, converter, 3n);
      await converter.connect(admin).recoverToken(alice, 3n, user.address);
      expect(await alice.ownerOf(3n)).to.equal(user.address);
    });

    it("reverts for stock of a registered pair", async function () {
      const { admin, user, alice, bob, converter } = await loadFixture(fixture);
      await expect(converter.connect(admin).recoverToken(bob, 2n, admin.address))
        .to.be.revertedWithCustomError(converter, "TokenOfRegisteredPair")
        .withArgs(await bob.getAddress(), 2n);
      await alice.connect(user).transferFrom(user.address, converter, 2n);
      await expect(converter.connect(admin).recoverToken(alice, 2n, admin.address))
        .to.be.revertedWithCustomError(converter, "TokenOfRegisteredPair")
        .withArgs(await alice.getAddress(), 2n);
    });
  });

  describe("setReverseConversion", function () {
    it("switches Bob → Alice conversion off and on, emitting ReverseConversionSet", async function () {
      const { admin, converter } = await loadFixture(fixture);
      await expect(converter.connect(admin).setReverseConversion(false)).to.emit(converter, "ReverseConversionSet").withArgs(false);
      expect(await converter.reverseConversionEnabled()).to.equal(false);
      await expect(converter.connect(admin).setReverseConversion(true)).to.emit(converter, "ReverseConversionSet").withArgs(true);
      expect(await converter.reverseConversionEnabled()).to.equal(true);
    });

    it("keeps the pause state when switching", async function () {
      const { admin, operator, converter } = await loadFixture(fixture);
      await converter.connect(operator).pause();
      await converter.connect(admin).setReverseConversion(false);
      expect(await converter.paused()).to.equal(true);
    });
  });

  describe("pause and unpause", function () {
    it("stop and resume conversions, emitting Paused and Unpaused; registration goes on while paused", async function () {
      const { operator, user, alice, bob, converter } = await loadFixture(fixture);
      await expect(converter.connect(operator).pause()).to.emit(converter, "Paused").withArgs(operator.address);
      expect(await converter.paused()).to.equal(true);
      await converter.connect(operator).registerPairs([3n], [3n]);
      await expect(converter.connect(operator).unpause()).to.emit(converter, "Unpaused").withArgs(operator.address);
      expect(await converter.paused()).to.equal(false);
      await alice.connect(user)[SAFE](user.address, converter, 3n);
      expect(await bob.ownerOf(3n)).to.equal(user.address);
    });

    it("keep the reverse switch", async function () {
      const { admin, operator, converter } = await loadFixture(fixture);
      await converter.connect(admin).setReverseConversion(false);
      await converter.connect(operator).pause();
      await converter.connect(operator).unpause();
      expect(await converter.reverseConversionEnabled()).to.equal(false);
    });

    it("revert when already paused or not paused", async function () {
      const { operator, converter } = await loadFixture(fixture);
      await expect(converter.connect(operator).unpause()).to.be.revertedWithCustomError(converter, "ExpectedPause");
      await converter.connect(operator).pause();
      await expect(converter.connect(operator).pause()).to.be.revertedWithCustomError(converter, "EnforcedPause");
    });
  });

  describe("isOperator", function () {
    it("tells whether an account holds the operator role", async function () {
      const { admin, operator, other, converter, OPERATOR_ROLE } = await loadFixture(fixture);
      expect(await converter.isOperator(operator.address)).to.equal(true);
      expect(await converter.isOperator(admin.address)).to.equal(false);
      await converter.connect(admin).grantRole(OPERATOR_ROLE, other.address);
      expect(await converter.isOperator(other.address)).to.equal(true);
    });
  });

  describe("addOperator", function () {
    it("grants the operator role, emitting OperatorAdded and RoleGranted", async function () {
      const { admin, other, converter, OPERATOR_ROLE } = await loadFixture(fixture);
      await expect(converter.connect(admin).addOperator(other.address))
        .to.emit(converter, "OperatorAdded")
        .withArgs(other.address)
        .and.to.emit(converter, "RoleGranted")
        .withArgs(OPERATOR_ROLE, other.address, admin.address);
      expect(await converter.hasRole(OPERATOR_ROLE, other.address)).to.equal(true);
      await expect(converter.connect(other).registerPairs([10n], [20n])).to.emit(converter, "PairRegistered");
    });

    it("does nothing for an account that is already an operator", async function () {
      const { admin, operator, converter } = await loadFixture(fixture);
      await expect(converter.connect(admin).addOperator(operator.address)).not.to.emit(converter, "OperatorAdded");
      expect(await converter.isOperator(operator.address)).to.equal(true);
    });
  });

  describe("removeOperator", function () {
    it("revokes the operator role, emitting OperatorRemoved and RoleRevoked", async function () {
      const { admin, operator, converter, OPERATOR_ROLE } = await loadFixture(fixture);
      await expect(converter.connect(admin).removeOperator(operator.address))
        .to.emit(converter, "OperatorRemoved")
        .withArgs(operator.address)
        .and.to.emit(converter, "RoleRevoked")
        .withArgs(OPERATOR_ROLE, operator.address, admin.address);
      expect(await converter.isOperator(operator.address)).to.equal(false);
      await expect(converter.connect(operator).registerPairs([10n], [20n])).to.be.revertedWithCustomError(
        converter,
        "AccessControlUnauthorizedAccount",
      );
    });

    it("does nothing for an account that is not an operator", async function () {
      const { admin, other, converter } = await loadFixture(fixture);
      await expect(converter.connect(admin).removeOperator(other.address)).not.to.emit(converter, "OperatorRemoved");
    });
  });

  describe("admin transfer (two steps, with delay)", function () {
    it("hands the admin role over after the delay, and only to the pending admin", async function () {
      const { admin, other, stranger, converter } = await loadFixture(fixture);
      await converter.connect(admin).beginDefaultAdminTransfer(other.address);
      await expect(converter.connect(other).acceptDefaultAdminTransfer()).to.be.revertedWithCustomError(
        converter,
        "AccessControlEnforcedDefaultAdminDelay",
      );
      await time.increase(24 * 3600 + 1);
      await expect(converter.connect(stranger).acceptDefaultAdminTransfer())
        .to.be.revertedWithCustomError(converter, "AccessControlInvalidDefaultAdmin")
        .withArgs(stranger.address);
      await converter.connect(other).acceptDefaultAdminTransfer();
      expect(await converter.defaultAdmin()).to.equal(other.address);
      await expect(converter.connect(admin).setReverseConversion(false)).to.be.revertedWithCustomError(
        converter,
        "AccessControlUnauthorizedAccount",
      );
      await converter.connect(other).setReverseConversion(false);
    });

    it("refuses a one-step grant of the admin role", async function () {
      const { admin, other, converter } = await loadFixture(fixture);
      await expect(converter.connect(admin).grantRole(await converter.DEFAULT_ADMIN_ROLE(), other.address)).to.be.revertedWithCustomError(
        converter,
        "AccessControlEnforcedDefaultAdminRules",
      );
    });
  });

  describe("predecessor ABI (IPredecessorERC721Converter)", function () {
    it("has every function and event of the predecessor's interface, with the same selectors and results", async function () {
      const { converter } = await loadFixture(fixture);
      const predecessor = (await ethers.getContractAt("IPredecessorERC721Converter", converter)).interface;
      predecessor.forEachFunction((fn) => {
        const ours = (converter.interface as Interface).getFunction(fn.selector);
        expect(ours, fn.format()).to.not.equal(null);
        expect(
          ours!.outputs.map((o) => o.type),
          fn.format(),
        ).to.deep.equal(fn.outputs.map((o) => o.type));
      });
      predecessor.forEachEvent((event) => {
        expect((converter.interface as Interface).getEvent(event.topicHash), event.format()).to.not.equal(null);
      });
    });

    it("serves the predecessor's scripts and users called through its interface", async function () {
      const { admin, other, user, alice, bob, converter } = await loadFixture(fixture);
      const legacy = await ethers.getContractAt("IPredecessorERC721Converter", converter);
      expect(await legacy.aliceContract()).to.equal(await alice.getAddress());
      expect(await legacy.bobContract()).to.equal(await bob.getAddress());
      expect(await legacy.owner()).to.equal(admin.address);

      await expect(legacy.connect(admin).addOperator(other.address)).to.emit(legacy, "OperatorAdded").withArgs(other.address);
      expect(await legacy.isOperator(other.address)).to.equal(true);

      // Stock is Bob 0..9; Bob 0, 2 and 5 are paired by the fixture.
      await legacy.connect(other).draftAliceTokens([10n], [3n]);
      await legacy.connect(other).draftBobTokens([4n], [11n]);
      await legacy.connect(other).draftAliceToken(12n, 6n);
      await legacy.connect(other).draftBobToken(7n, 13n);
      for (const [aliceId, bobId] of [
        [10n, 3n],
        [11n, 4n],
        [12n, 6n],
        [13n, 7n],
      ]) {
        expect(await legacy.getBobTokenID(aliceId)).to.equal(bobId);
        expect(await legacy.getAliceTokenID(bobId)).to.equal(aliceId);
      }

      await alice.connect(admin).mintBatch(user.address, [11n]);
      await alice.connect(user).setApprovalForAll(converter, true);
      await bob.connect(user).setApprovalForAll(converter, true);
      await expect(legacy.connect(other).pause()).to.emit(legacy, "Paused").withArgs(other.address);
      expect(await legacy.paused()).to.equal(true);
      await expect(legacy.connect(user).convertFromAliceToBob(11n)).to.be.revertedWithCustomError(converter, "EnforcedPause");
      await expect(legacy.connect(other).unpause()).to.emit(legacy, "Unpaused").withArgs(other.address);
      await legacy.connect(user).convertFromAliceToBob(11n);
      expect(await bob.ownerOf(4n)).to.equal(user.address);
      await legacy.connect(user).convertFromBobToAlice(4n);
      expect(await alice.ownerOf(11n)).to.equal(user.address);

      await expect(legacy.connect(admin).removeOperator(other.address)).to.emit(legacy, "OperatorRemoved").withArgs(other.address);
      expect(await legacy.isOperator(other.address)).to.equal(false);
      await expect(legacy.connect(other).draftAliceToken(14n, 8n)).to.be.revertedWithCustomError(
        converter,
        "AccessControlUnauthorizedAccount",
      );
    });
  });

  describe("supportsInterface", function () {
    it("answers for ERC-165, IERC721Receiver, IAccessControl and the admin rules, and nothing else", async function () {
      const { converter } = await loadFixture(fixture);
      for (const id of ["0x01ffc9a7", "0x150b7a02", "0x7965db0b", "0x31498786"]) {
        expect(await converter.supportsInterface(id), id).to.equal(true);
      }
      expect(await converter.supportsInterface("0xffffffff")).to.equal(false);
      expect(await converter.supportsInterface("0x80ac58cd")).to.equal(false);
    });
  });
});
