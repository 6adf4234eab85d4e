import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { anchorOf, anchorsOf, ROOT } from "../helpers/docs";

/** The folders of docs/: guides to read in order, reference to look things up, and running the service. */
const DOC_FOLDERS = ["guides", "reference", "operations"];

/** The pages of docs/, as paths from the root (`docs/guides/getting-started.md`). */
function docPages(): string[] {
  return DOC_FOLDERS.flatMap((folder) =>
    fs
      .readdirSync(path.join(ROOT, "docs", folder))
      .filter((file) => file.endsWith(".md"))
      .map((file) => path.join("docs", folder, file)),
  );
}

/** The Markdown pages a reader follows links between: the front page, the top-level guides and docs/. */
function pages(): string[] {
  const top = fs.readdirSync(ROOT).filter((file) => file.endsWith(".md"));
  return [...top, ...docPages(), path.join("server", "indexer", "store", "README.md")];
}

/** Each relative link of `file` (outside code) whose target file or heading does not exist. */
function brokenLinks(file: string): string[] {
  const text = fs
    .readFileSync(path.join(ROOT, file), "utf8")
    .replace(/```[\s\S]*?```/g, "")
    .replace(/`[^`\n]*`/g, "");
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target)) continue;
    const [link, anchor] = target.split("#");
    const linked = link === "" ? file : path.normalize(path.join(path.dirname(file), link));
    if (!fs.existsSync(path.join(ROOT, linked))) broken.push(`${target} (no such file)`);
    else if (anchor && linked.endsWith(".md") && !anchorsOf(linked).has(anchor)) broken.push(`${target} (no such heading)`);
  }
  return broken;
}

describe("links between the docs", function () {
  it("makes GitHub's anchors of headings", function () {
    expect(anchorOf("Indexer and data reads")).to.equal("indexer-and-data-reads");
    expect(anchorOf("`npm run build`: the production build")).to.equal("npm-run-build-the-production-build");
    expect(anchorOf("ERC-2309 ranges")).to.equal("erc-2309-ranges");
  });

  it("finds a broken link", function () {
    expect(brokenLinks("README.md")).to.be.an("array");
    const page = path.join("docs", "guides", "__links-check.md");
    fs.writeFileSync(path.join(ROOT, page), "[a](nowhere.md) [b](development.md#no-such-heading) [c](development.md#tests)\n");
    try {
      expect(brokenLinks(page)).to.deep.equal(["nowhere.md (no such file)", "development.md#no-such-heading (no such heading)"]);
    } finally {
      fs.rmSync(path.join(ROOT, page));
    }
  });

  it("every relative link of every page leads to a file and heading that exist", function () {
    const broken = Object.fromEntries(
      pages()
        .map((file) => [file, brokenLinks(file)])
        .filter(([, links]) => links.length > 0),
    );
    expect(broken).to.deep.equal({});
  });

  it("every `npm run <script>` a page shows names a script of package.json", function () {
    const scripts = Object.keys((JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: object }).scripts);
    const unknown = pages().flatMap((file) =>
      [...fs.readFileSync(path.join(ROOT, file), "utf8").matchAll(/npm run (?:--silent )?([a-z][a-z-]*(?::[a-z-]+)*)/g)]
        .map(([, script]) => script)
        .filter((script) => !scripts.includes(script))
        .map((script) => `${file}: npm run ${script}`),
    );
    expect(unknown).to.deep.equal([]);
  });

  it("docs/ holds its three folders and nothing else", function () {
    expect(fs.readdirSync(path.join(ROOT, "docs")).sort()).to.deep.equal([...DOC_FOLDERS].sort());
  });

  it("the README's index lists every page of docs/", function () {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const missing = docPages().filter((file) => !readme.includes(`(${file})`));
    expect(missing).to.deep.equal([]);
  });
});
