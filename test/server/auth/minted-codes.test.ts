import { expect } from "chai";
import { MintedCodes, type HeldWrite } from "../../../server/auth/oidc";
import { TestClock } from "../../helpers/app";

/** What the statement that redeems a challenge stores: a grant and the code minted from it. */
function minted(codeId: string, expiresAt: Date, grantId = `grant-of-${codeId}`): HeldWrite[] {
  return [
    { kind: "Grant", id: grantId, payload: { accountId: "0xabc", clientId: "rp", openid: { scope: "openid" } }, expiresAt: null },
    { kind: "AuthorizationCode", id: codeId, payload: { grantId, clientId: "rp", scope: "openid", exp: 1 }, expiresAt },
  ];
}
/** The app's clock, which the adapter computes a code's expiry in and MintedCodes compares it with. */
const clock = new TestClock();
const inAMinute = () => new Date(clock.now() + 60_000);

describe("MintedCodes", function () {
  it("hands a remembered code and its grant out once, as copies of what was stored", function () {
    const codes = new MintedCodes(clock.now);
    const writes = minted("c1", inAMinute());
    codes.remember(writes);
    const taken = codes.take("c1");
    expect(taken).to.deep.equal({ code: writes[1].payload, grant: writes[0].payload });
    expect(taken!.code).not.to.equal(writes[1].payload);
    expect(codes.take("c1"), "a second exchange reads the database").to.equal(undefined);
  });

  it("does not hand out a code past its expiry on the app's clock (the database is asked, and answers as it would)", function () {
    const codes = new MintedCodes(clock.now);
    codes.remember(minted("c1", inAMinute()));
    codes.remember(minted("c2", inAMinute()));
    expect(codes.take("c1")).not.to.equal(undefined);
    clock.advance(60_000);
    expect(codes.take("c2")).to.equal(undefined);
  });

  it("remembers nothing when the writes are not one code and its own grant", function () {
    const codes = new MintedCodes(clock.now);
    const [grant, code] = minted("c1", inAMinute());
    codes.remember([code]);
    codes.remember([grant, { ...code, payload: { ...code.payload, grantId: "another-grant" } }]);
    codes.remember([grant, { ...code, expiresAt: null }]);
    expect(codes.take("c1")).to.equal(undefined);
  });

  it(`forgets the oldest codes beyond ${MintedCodes.MAX}`, function () {
    const codes = new MintedCodes(clock.now);
    for (let i = 0; i <= MintedCodes.MAX; i++) codes.remember(minted(`c${i}`, inAMinute()));
    expect(codes.take("c0")).to.equal(undefined);
    expect(codes.take("c1")).not.to.equal(undefined);
    expect(codes.take(`c${MintedCodes.MAX}`)).not.to.equal(undefined);
  });
});
