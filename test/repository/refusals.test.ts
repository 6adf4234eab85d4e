import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";

const TEST = path.resolve(__dirname, "..");

/**
 * A line that asserts a 4xx status by its number: `expect(x.status).to.equal(404)`, `expect(x.statusCode, l).to.equal(400)`,
 * `.to.deep.include({ status: 401 })`, `.to.be.oneOf([400, 401])`. A refusal is asserted whole with
 * test/helpers/refusal.ts's `expectRefusal` (status, content type, code and body shape) instead. Negations
 * (`.to.not.equal(429)`) are not refusals. A status of something that is not the service (a bare library under
 * test) is marked on its line with the comment `// not a refusal of the service`.
 */
const BARE_STATUS = [
  /\bstatus(?:Code)?\b.*\.to\.(?!not\b)[\w.]*\(\s*\[?[^)]*?\b4\d\d\b/,
  /\.to\.(?!not\b)[\w.]*\(\s*\{[^)]*\bstatus(?:Code)?:\s*4\d\d\b/,
];
const EXEMPT = "// not a refusal of the service";

function testSources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return testSources(file);
    return entry.name.endsWith(".ts") ? [file] : [];
  });
}

/** `file:line: text` of each bare 4xx assertion in `text`. */
function bareRefusals(file: string, text: string): string[] {
  return text
    .split("\n")
    .map((line, i) => ({ line, at: `${path.relative(TEST, file)}:${i + 1}` }))
    .filter(({ line }) => BARE_STATUS.some((pattern) => pattern.test(line)) && !line.includes(EXEMPT))
    .map(({ line, at }) => `${at}: ${line.trim()}`);
}

describe("refusals in tests", function () {
  it("finds the assertions it forbids, and not the helper's calls or negations", function () {
    const found = bareRefusals(
      "x.test.ts",
      [
        "expect(answer.status).to.equal(401);",
        "expect(r.statusCode, label).to.equal(400);",
        "expect(answer).to.deep.include({ status: 400 });",
        "expect(answer.status, secret).to.be.oneOf([400, 401]);",
        'await expectRefusal(answer, 401, "invalid_signature");',
        "expect((await from(ip, path)).status, path).to.not.equal(429);",
        "expect(response.status).to.equal(200);",
        `expect((await fetch(url)).status).to.equal(404); ${EXEMPT}: a bare library`,
      ].join("\n"),
    );
    expect(found.map((line) => line.split(":")[1])).to.deep.equal(["1", "2", "3", "4"]);
  });

  it("every test asserts a 4xx through expectRefusal, never by its status alone", function () {
    const helper = path.join(TEST, "helpers", "refusal.ts");
    const self = path.join(TEST, "repository", "refusals.test.ts");
    const found = testSources(TEST)
      .filter((file) => file !== helper && file !== self)
      .flatMap((file) => bareRefusals(file, fs.readFileSync(file, "utf8")));
    expect(found, "use expectRefusal (test/helpers/refusal.ts)").to.deep.equal([]);
  });
});
