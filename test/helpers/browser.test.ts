import { expect } from "chai";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { findBrowser, launchBrowser, npmChromium } from "./browser";
import { runNodeProcess } from "./cli";
import { closesAfterEach } from "./closes-after-each";
import { makeTempDir } from "./temp-dir";

describe("browser for the browser tests", function () {
  this.timeout(120_000);
  const saved = process.env.CHROMIUM_PATH;
  beforeEach(() => delete process.env.CHROMIUM_PATH);
  after(() => {
    if (saved === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = saved;
  });

  const linuxX64 = process.platform === "linux" && process.arch === "x64";

  describe("npm-delivered Chromium", function () {
    it("launches without any system browser and runs pages in separate contexts", async function () {
      if (!linuxX64) {
        await expect(npmChromium()).to.be.rejectedWith(/CHROMIUM_PATH/);
        return;
      }
      const choice = await findBrowser({ system: false });
      expect(choice.source).to.equal("npm");
      expect(existsSync(choice.executablePath)).to.equal(true);
      const browser = await launchBrowser({ system: false });
      try {
        const titles: string[] = [];
        for (const text of ["one", "two"]) {
          const context = await browser.newContext();
          const page = await context.newPage();
          await page.setContent(
            `<button>${text}</button><script>document.title = document.querySelector("button").textContent.toUpperCase()</script>`,
          );
          titles.push(await page.title());
          await context.close();
        }
        expect(titles).to.deep.equal(["ONE", "TWO"]);
      } finally {
        await browser.close();
      }
    });

    it("keeps the page's security rules (a cross-origin read is refused)", async function () {
      if (!linuxX64) return;
      let served = 0;
      const server = createServer((request, response) => {
        if (request.url === "/data") served += 1;
        response.setHeader("content-type", request.url === "/data" ? "application/json" : "text/html");
        response.end(request.url === "/data" ? "{}" : "<!doctype html><title>a</title>");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      const browser = await launchBrowser({ system: false });
      try {
        const page = await browser.newPage();
        await page.goto(`http://127.0.0.1:${port}/`);
        const read = (url: string) =>
          page.evaluate(
            (u) =>
              fetch(u).then(
                (r) => r.text(),
                () => "refused",
              ),
            url,
          );
        expect(await read(`http://127.0.0.1:${port}/data`)).to.equal("{}");
        expect(await read(`http://localhost:${port}/data`)).to.equal("refused");
        expect(served, "the cross-origin request reached the server: the browser refused the read").to.equal(2);
      } finally {
        await browser.close();
        server.close();
      }
    });
  });

  describe("npm-delivered Chromium's first unpack", function () {
    // Each process of `hardhat test --parallel` may be the first to want the browser: the package unpacks it into the
    // temp directory and reuses whatever file it finds there, whole or not.
    const closing = closesAfterEach();
    /** What a test process that launches the browser with `tmp` as its temp directory prints: its page's title. */
    const launchInChild = async (tmp: string) => {
      const run = await runNodeProcess(
        [
          "-r",
          "ts-node/register/transpile-only",
          "-e",
          `require(${JSON.stringify(path.join(__dirname, "browser"))}).launchBrowser({ system: false }).then(async (b) => {
            const page = await b.newPage();
            await page.setContent("<title>up</title>");
            process.stdout.write(await page.title());
            await b.close();
          })`,
        ],
        { TMPDIR: tmp, CHROMIUM_PATH: "" },
      );
      if (run.code !== 0) throw new Error(`the test process exited with ${run.code}\n${run.stderr}`);
      return run.stdout;
    };

    it("is unpacked once when several test processes start at the same time", async function () {
      if (!linuxX64) return;
      const tmp = closing(makeTempDir("chromium-first-"));
      expect(await Promise.all([1, 2, 3].map(() => launchInChild(tmp.path)))).to.deep.equal(["up", "up", "up"]);
    });

    it("unpacks again over a binary a killed run left half written", async function () {
      if (!linuxX64) return;
      const tmp = closing(makeTempDir("chromium-half-"));
      writeFileSync(path.join(tmp.path, "chromium"), Buffer.alloc(4096), { mode: 0o700 });
      expect(await launchInChild(tmp.path)).to.equal("up");
    });

    it("unpacks again, under the lock, where a temp cleaner removed the binary and left the marker", async function () {
      if (!linuxX64) return;
      const tmp = closing(makeTempDir("chromium-cleaned-"));
      const marker = path.join(tmp.path, "chromium.unpacked");
      writeFileSync(marker, "left by an earlier unpack");
      expect(await launchInChild(tmp.path)).to.equal("up");
      // Taken as it was, the marker would be unchanged: the unpack that wrote the binary again wrote its own.
      expect(readFileSync(marker, "utf8")).to.equal("");
      expect(existsSync(path.join(tmp.path, "chromium"))).to.equal(true);
    });
  });

  describe("CHROMIUM_PATH", function () {
    it("comes first", async function () {
      if (!linuxX64) return;
      process.env.CHROMIUM_PATH = (await npmChromium()).executablePath;
      const choice = await findBrowser();
      expect(choice).to.include({ source: "CHROMIUM_PATH", executablePath: process.env.CHROMIUM_PATH });
    });

    it("fails naming the variable when it is not an executable", async function () {
      process.env.CHROMIUM_PATH = "/nonexistent/chromium";
      await expect(findBrowser()).to.be.rejectedWith(/CHROMIUM_PATH=\/nonexistent\/chromium is not an executable/);
    });
  });
});
