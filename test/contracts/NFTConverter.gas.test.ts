import path from "node:path";
import { expect } from "chai";
import { ethers } from "hardhat";
import { measureConverterGas, type GasFigure } from "../../support/converter-gas";
import { GasSnapshot } from "../helpers/gas-snapshot";

describe("NFTConverter gas", function () {
  const snapshot = new GasSnapshot(path.join(__dirname, "__snapshots__", "NFTConverter.gas.json"));
  let figures: GasFigure[];

  before(async function () {
    figures = await measureConverterGas(await ethers.getSigners());
  });
  after(() => snapshot.save());

  const figure = (prefix: string) => {
    const found = figures.find((f) => f.name.startsWith(prefix));
    if (!found) throw new Error(`no gas figure "${prefix}"`);
    return found;
  };

  it("matches the committed snapshot for every measured transaction, and measures every one it holds", function () {
    snapshot.checkComplete(figures.map((f) => f.name));
    for (const f of figures) snapshot.check(f.name, f.gas);
  });

  it("converts by safeTransferFrom within 92,000 gas for the whole transaction", function () {
    expect(figure("convert Alice→Bob: safeTransferFrom").gas).to.be.at.most(92_000);
  });

  it("converts through the approval path within 92,000 gas", function () {
    expect(figure("convert Alice→Bob: convertFromAliceToBob").gas).to.be.at.most(92_000);
  });

  it("registers pairs within 47,000 gas per pair in batches of 100", function () {
    expect(figure("registerPairs, per pair").gas).to.be.at.most(47_000);
  });

  it("measures the floor the way the budget defines it (two plain transfers, one base)", function () {
    const conversion = figure("convert Alice→Bob: safeTransferFrom");
    const legs = figure("floor leg: Alice").gas + figure("floor leg: Bob").gas - 21_000;
    expect(conversion.floor).to.equal(legs);
  });
});
