import { expect } from "chai";
import { RunOnWake } from "../../../server/lib/run-on-wake";
import { heldCalls } from "../../helpers/held-calls";

describe("RunOnWake", function () {
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it("runs once per wake when idle, never two runs at once", async function () {
    const held = heldCalls();
    const runner = new RunOnWake(held.call, () => {});
    runner.wake();
    runner.wake();
    expect(held.calls()).to.equal(1);
    held.release();
    await settle();
    // The wake during the run asked for one more.
    expect(held.calls()).to.equal(2);
    held.release();
    await settle();
    expect(held.calls()).to.equal(2);
  });

  it("folds any number of wakes during a run into one more run", async function () {
    const held = heldCalls();
    const runner = new RunOnWake(held.call, () => {});
    runner.wake();
    for (let i = 0; i < 10; i++) runner.wake();
    held.release();
    await settle();
    held.release();
    await settle();
    expect(held.calls()).to.equal(2);
  });

  it("reports a failed run and runs again on the next wake", async function () {
    const failures: unknown[] = [];
    let runs = 0;
    const runner = new RunOnWake(
      async () => {
        runs++;
        if (runs === 1) throw new Error("first run fails");
      },
      (error) => failures.push(error),
    );
    runner.wake();
    await settle();
    runner.wake();
    await settle();
    expect(runs).to.equal(2);
    expect(failures.map((error) => (error as Error).message)).to.deep.equal(["first run fails"]);
  });

  it("starts no run after stop, and stop waits for the run in progress", async function () {
    const held = heldCalls();
    const runner = new RunOnWake(held.call, () => {});
    runner.wake();
    runner.wake();
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).to.equal(false);
    held.release();
    await stopping;
    runner.wake();
    await settle();
    // Neither the wake asked for during the run nor the one after stop ran.
    expect(held.calls()).to.equal(1);
  });
});
