import { expect } from "chai";
import { escapeHtml } from "../../../server/lib/html";

describe("escapeHtml (the one HTML escaper of the pages)", function () {
  it("writes the five characters that end content or a quoted attribute as references, and nothing else", function () {
    expect(escapeHtml(`<a href="x" title='y'>&amp; ログイン</a>`)).to.equal(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp; ログイン&lt;/a&gt;",
    );
    expect(escapeHtml("plain text, no markup")).to.equal("plain text, no markup");
  });
});
