import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { generatedFiles } from "../../server/config/docs";

const ROOT = path.resolve(__dirname, "..", "..");

describe("docs/reference/configuration.md and .env.example", function () {
  it("are what server/config/settings.ts generates", function () {
    for (const [file, text] of Object.entries(generatedFiles(ROOT))) {
      const committed = readFileSync(path.join(ROOT, file), "utf8");
      expect(committed === text, `${file} differs from server/config/settings.ts: run npm run config:docs`).to.equal(true);
    }
  });
});
