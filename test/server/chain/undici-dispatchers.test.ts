import { expect } from "chai";
import * as undici from "undici";
import Agent from "undici/lib/dispatcher/agent";
import Client from "undici/lib/dispatcher/client";

/**
 * The two modules of undici's internals that server/chain/http-request.ts loads instead of its entry: if an upgrade of
 * undici moves or renames them, this fails, and every call to a provider would fail at its start.
 */
describe("undici's dispatchers, as http-request.ts loads them", function () {
  it("are the Agent and the Client of undici's entry", function () {
    expect(Agent).to.equal(undici.Agent);
    expect(Client).to.equal(undici.Client);
  });
});
