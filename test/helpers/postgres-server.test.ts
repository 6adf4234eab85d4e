import { expect } from "chai";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { dataDiskServerBinariesOrSkip, startPostgresServer } from "./postgres-server";

/** The mount points of the machine. */
const mountPoints = () =>
  fs
    .readFileSync("/proc/self/mounts", "utf8")
    .split("\n")
    .map((line) => line.split(" ")[1]);

describe("a PostgreSQL server of a test's own", function () {
  this.timeout(120_000);

  describe("on a data disk of its own (tmpfs)", function () {
    it("is removed, disk and folder, while a process still works in its data directory", async function () {
      const server = await startPostgresServer(dataDiskServerBinariesOrSkip(this), { dataDiskMb: 32 });
      expect(mountPoints()).to.include(server.dataDir);
      // As a backend that has not exited yet when the server's stop returns: the disk is busy until it is gone.
      const holder = spawn("sleep", ["30"], { cwd: server.dataDir, stdio: "ignore" });
      const exited = new Promise((resolve) => holder.once("exit", resolve));
      try {
        await server.remove();
        expect(mountPoints()).not.to.include(server.dataDir);
        expect(fs.existsSync(path.dirname(server.dataDir)), "the server's folder").to.equal(false);
      } finally {
        holder.kill();
        await exited;
      }
    });
  });
});
