import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";

const ROOT = path.resolve(__dirname, "..", "..");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith(".ts") ? [file] : [];
  });
}

describe("the service's deadlines", function () {
  it("compose no signal with AbortSignal.any, which Node records on each source for as long as that source lives", function () {
    // One exchange's deadline joined to the service's shutdown signal is a Deadline (server/lib/deadline.ts).
    const offenders = sources(path.join(ROOT, "server")).filter((file) =>
      /AbortSignal\s*\.\s*any\s*\(/.test(fs.readFileSync(file, "utf8")),
    );
    expect(offenders.map((file) => path.relative(ROOT, file))).to.deep.equal([]);
  });
});
