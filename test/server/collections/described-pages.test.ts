import { expect } from "chai";
import { DescribedPages, type DescribedPage } from "../../../server/collections/described-pages";

const described = (json: string): DescribedPage => ({ fingerprint: "f", chainBlock: 1, refreshAt: Infinity, indexed: 1, json });

describe("DescribedPages", function () {
  it("keeps at most its entries, the oldest stored going first", function () {
    const pages = new DescribedPages({ entries: 2, chars: 1_000 });
    for (const key of ["a", "b", "c"]) pages.set(key, described(`[${key}]`));
    expect(["a", "b", "c"].map((key) => pages.get(key)?.json)).to.deep.equal([undefined, "[b]", "[c]"]);
  });

  it("keeps at most its characters, and never a page larger than all of them", function () {
    const pages = new DescribedPages({ entries: 100, chars: 10 });
    pages.set("a", described("x".repeat(4)));
    pages.set("b", described("x".repeat(4)));
    pages.set("c", described("x".repeat(4)));
    expect(["a", "b", "c"].map((key) => pages.get(key) !== undefined)).to.deep.equal([false, true, true]);
    pages.set("huge", described("x".repeat(11)));
    expect(["b", "c", "huge"].map((key) => pages.get(key) !== undefined)).to.deep.equal([true, true, false]);
    // A page stored again replaces its older self, whose characters no longer count: 2 + 4 + 4 fit in 10.
    pages.set("b", described("x".repeat(2)));
    pages.set("d", described("x".repeat(4)));
    expect(["b", "c", "d"].map((key) => pages.get(key) !== undefined)).to.deep.equal([true, true, true]);
  });
});
