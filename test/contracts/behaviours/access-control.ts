import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { loadFixture } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { expect } from "chai";
import type { BaseContract, ContractTransactionResponse } from "ethers";

/** A function that only the holders of one role may call, and how to call it so that a holder succeeds. */
export interface RestrictedFunction<F> {
  /** The function's name in the ABI. */
  name: string;
  /** The test title, when the name alone does not say which call this is (e.g. `grantRole` of one role). */
  title?: string;
  /** The name of the contract's getter for the role the function requires, e.g. "OPERATOR_ROLE". */
  role: string;
  /** Brings the fixture to a state where the call succeeds (e.g. pauses before `unpause`). */
  prepare?: (f: F) => Promise<unknown>;
  /** Calls the function as `caller`, with arguments that do not depend on the caller. */
  call: (f: F, caller: HardhatEthersSigner) => Promise<ContractTransactionResponse>;
}

/** An OpenZeppelin `AccessControl` contract deployed by a fixture, and what its tests know about its roles. */
export interface AccessControlled<F> {
  /** A named fixture (for `loadFixture`). */
  fixture: () => Promise<F>;
  contract: (f: F) => BaseContract;
  /** One holder of each role, by the name of the role's getter; none of them holds another holder's role. */
  holders: (f: F) => Record<string, HardhatEthersSigner>;
  /** An account that holds none of the roles. */
  outsider: (f: F) => HardhatEthersSigner;
  /** Every restricted function; one whose role depends on its arguments (`grantRole`) once per case, with a title. */
  restricted: RestrictedFunction<F>[];
  /** The other state-changing functions: open to everyone, or guarded by something else than a role. */
  open: string[];
}

/**
 * Checks, for every restricted function, that a caller without its role (the outsider, and the holders of the other
 * roles) is refused with `AccessControlUnauthorizedAccount(caller, role)` and that the role's holder is not; and
 * that no state-changing function of the ABI is left out of the lists.
 */
export function shouldBehaveLikeAccessControlled<F>({ fixture, contract, holders, outsider, restricted, open }: AccessControlled<F>) {
  const roleId = (f: F, role: string): Promise<string> => contract(f).getFunction(role).staticCall();

  describe("access control", function () {
    it("lists every state-changing function of the ABI as restricted or as open", async function () {
      const f = await loadFixture(fixture);
      const stateChanging: string[] = [];
      contract(f).interface.forEachFunction((fn) => {
        if (!fn.constant) stateChanging.push(fn.name);
      });
      const restrictedNames = restricted.map((r) => r.name);
      const listed = [...restrictedNames, ...open];
      expect(
        stateChanging.filter((fn) => !listed.includes(fn)),
        "listed neither as restricted nor as open",
      ).to.deep.equal([]);
      expect(
        listed.filter((fn) => !stateChanging.includes(fn)),
        "not a state-changing function of the ABI",
      ).to.deep.equal([]);
      expect(
        open.filter((fn) => restrictedNames.includes(fn)),
        "listed both as restricted and as open",
      ).to.deep.equal([]);
    });

    for (const { name, title, role, prepare, call } of restricted) {
      describe(title ?? name, function () {
        it(`reverts when the caller lacks ${role}, holders of the other roles included`, async function () {
          const f = await loadFixture(fixture);
          await prepare?.(f);
          const id = await roleId(f, role);
          const others = Object.entries(holders(f)).filter(([held]) => held !== role);
          for (const caller of [outsider(f), ...others.map(([, holder]) => holder)]) {
            await expect(call(f, caller))
              .to.be.revertedWithCustomError(contract(f), "AccessControlUnauthorizedAccount")
              .withArgs(caller.address, id);
          }
        });

        it(`lets a holder of ${role} call it`, async function () {
          const f = await loadFixture(fixture);
          await prepare?.(f);
          const holder = holders(f)[role];
          expect(holder, `a holder of ${role}`).to.not.equal(undefined);
          const tx = await call(f, holder);
          // The call must be the function named: a mislabelled entry would leave the real one unchecked.
          expect(tx.to).to.equal(await contract(f).getAddress());
          expect(contract(f).interface.parseTransaction(tx)?.name).to.equal(name);
          await expect(tx).not.to.be.reverted;
        });
      });
    }
  });
}
