import { getAddress } from "ethers";
import { eip55 } from "../../server/chain/eip55";
import { checksummer } from "../../server/chain/values";
import { percentile } from "../lib/load";
import type { Row, Suite } from "../lib/suite";

/** Addresses per measured pass, and passes (the median is shown): the full run's, then the smoke's. */
const FULL = { addresses: 200_000, passes: 5 };
const SMOKE = { addresses: 5_000, passes: 1 };
/** The owners of the scale suite's two sizes. */
const FEW = 10_000;
const MANY = 1_000_000;

/** The synthetic owner n, as the database hands addresses to the service: a new lower-case string each time. */
const owner = (n: number) => `0x2${n.toString(16).padStart(39, "0")}`;

/** Microseconds per address of `checksum` over `keys` (as owners), the median of `passes` passes after one warm-up. */
function perAddress(checksum: (address: string) => string, keys: number[], passes: number): number {
  const times: number[] = [];
  for (let pass = 0; pass <= passes; pass++) {
    const started = process.hrtime.bigint();
    let length = 0;
    for (const key of keys) length += checksum(owner(key)).length;
    if (length !== 42 * keys.length) throw new Error("a checksum is not an address");
    if (pass > 0) times.push(Number(process.hrtime.bigint() - started) / 1000 / keys.length);
  }
  return percentile(times, 50);
}

const checksums: Suite = {
  method: [
    "What an address on the wire costs the service, per address, in this process: EIP-55 by ethers' `getAddress` and by `eip55` (server/chain/eip55.ts), and through a checksummer as the service makes them (server/chain/values.ts) when the addresses repeat (drawn from 10,000, as the scale suite's small size's owners) and when they mostly do not (drawn from 1,000,000, its full size's).",
    "Each is the median of 5 passes over the same 200,000 addresses, made afresh for each call as the database's answers make them.",
    "`eip55` must cost at most half of `getAddress`, and a checksummer that misses at most 1.5× `eip55` alone: over a large index most addresses of a page are not asked again for a long time, so one seen once must cost its hash and little more (a Map kept in the order of use, which kept every address at its first sighting, cost two to three times the hash at each miss, for its entries and its strings' life in the old generation).",
  ],
  async run({ smoke, log }) {
    const { addresses, passes } = smoke ? SMOKE : FULL;
    const random = (n: number) => Array.from({ length: addresses }, () => Math.floor(Math.random() * n));
    const few = random(FEW);
    const many = random(MANY);
    log(`checksums: ${addresses.toLocaleString("en-US")} addresses, ${passes} passes each`);
    const ethers = perAddress(getAddress, many, passes);
    const hashed = perAddress(eip55, many, passes);
    const hits = perAddress(checksummer(), few, passes);
    const misses = perAddress(checksummer(), many, passes);
    const suite = "checksums";
    const rows: Row[] = [
      { suite, metric: "EIP-55 checksum of an address, ethers' getAddress", value: ethers, unit: "µs" },
      {
        suite,
        metric: "EIP-55 checksum of an address, eip55",
        value: hashed,
        unit: "µs",
        reference: { label: "getAddress", value: ethers },
        ratio: hashed / ethers,
        budget: { text: "≤ 0.5", met: hashed / ethers <= 0.5 },
      },
      {
        suite,
        metric: `checksummer, addresses drawn from ${FEW.toLocaleString("en-US")} (kept)`,
        value: hits,
        unit: "µs",
        reference: { label: "eip55", value: hashed },
        ratio: hits / hashed,
      },
      {
        suite,
        metric: `checksummer, addresses drawn from ${MANY.toLocaleString("en-US")} (mostly not kept)`,
        value: misses,
        unit: "µs",
        reference: { label: "eip55", value: hashed },
        ratio: misses / hashed,
        budget: { text: "≤ 1.5", met: misses / hashed <= 1.5 },
      },
    ];
    return rows;
  },
};

export default checksums;
