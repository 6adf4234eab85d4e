import { expect } from "chai";
import { errorPage } from "../../../server/auth/oidc-guard";
import { escapeHtml } from "../../../server/lib/html";

describe("the authorization endpoint's error page", function () {
  it("escapes the error and description with the pages' escaper", function () {
    const page = errorPage("invalid_request", `<script>alert("x")</script> & 'q'`);
    expect(page).to.include(`<p>invalid_request: ${escapeHtml(`<script>alert("x")</script> & 'q'`)}</p>`);
    expect(page).to.include("&lt;script&gt;").and.not.include("<script>");
  });

  it("shows an error of oidc-provider's that has no description", function () {
    expect(errorPage("server_error", undefined)).to.include("<p>server_error: </p>");
  });
});
