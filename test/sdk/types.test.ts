import fs from "node:fs";
import { expect } from "chai";
import { appForSuite } from "../helpers/suite-app";
import { generateSdkTypes, SDK_TYPES_FILE } from "../helpers/sdk-types";

describe("SDK types", function () {
  const t = appForSuite();

  it("are the ones the running service's OpenAPI document generates (UPDATE_SNAPSHOTS=true rewrites them)", async function () {
    const generated = await generateSdkTypes(await (await t().fetch("/openapi.json")).json());
    if (process.env.UPDATE_SNAPSHOTS === "true") fs.writeFileSync(SDK_TYPES_FILE, generated);
    const committed = fs.existsSync(SDK_TYPES_FILE) ? fs.readFileSync(SDK_TYPES_FILE, "utf8") : "";
    expect(
      committed === generated,
      "sdk/src/generated/openapi.ts is not what the service's document generates: run UPDATE_SNAPSHOTS=true npx hardhat test test/sdk/types.test.ts",
    ).to.equal(true);
  });
});
