import { expect } from "chai";
import { runCliProcess } from "../../helpers/cli";

/** The skeleton every CLI of the service shares (server/cli/run.ts): help, and refusals of the command line. */
describe("the CLIs' command line", function () {
  this.timeout(60_000);
  const tools: Array<[name: "client" | "login-keys" | "sign-metadata", usage: string, refused: RegExp]> = [
    ["client", "Registers the relying parties of the login service", /^client: Unknown option '--bogus'/],
    // A kid may begin with "-": login-keys reads what is not one of its flags as an argument.
    ["login-keys", "Manages the ID-token signing keys", /^login-keys: unknown command "--bogus"/],
    ["sign-metadata", "Signs metadata for the metadata service", /^sign-metadata: Unknown option '--bogus'/],
  ];

  for (const [name, usage, refused] of tools) {
    it(`npm run ${name} -- --help prints the usage, exit code 0`, async function () {
      const run = await runCliProcess(name, ["--help"], {});
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout.startsWith(usage), run.stdout).to.equal(true);
      expect(run.stderr).to.equal("");
    });

    it(`npm run ${name} -- --bogus is refused in one line naming the tool, then the usage, exit code 2`, async function () {
      const run = await runCliProcess(name, ["--bogus"], {});
      expect(run.code).to.equal(2);
      expect(run.stderr).to.match(refused);
      expect(run.stderr.split("\n")[1]).to.equal("");
      expect(run.stderr.split("\n")[2].startsWith(usage), run.stderr).to.equal(true);
      expect(run.stdout).to.equal("");
    });
  }
});
