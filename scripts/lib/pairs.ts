import fs from "node:fs";
import path from "node:path";
import type { NFTConverter } from "../../typechain-types";
import { parseDecimalId } from "./decimal-id";

export interface Pair {
  alice: bigint;
  bob: bigint;
  /** Where it was written: `file:line` (CSV) or `file[index]` (JSON), for messages. */
  where: string;
}

const MAX_PAIRABLE = 2n ** 256n - 2n; // the converter stores id + 1

/** A pairs file that cannot be used; the message names the file and the line. */
export class PairsFileError extends Error {}

/**
 * Reads a pairs file: CSV (`alice_id,bob_id` per line; a header, blank lines and `#` comments allowed) or JSON
 * (`[[alice, bob], ...]` or `[{"alice": .., "bob": ..}, ...]`, ids as decimal strings or safe integers). Every id
 * must be a decimal uint256 the converter can pair, and no id may appear twice on its side.
 */
export function readPairsFile(file: string): Pair[] {
  const name = path.basename(file);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new PairsFileError(`${file}: ${(error as Error).message}`);
  }
  const pairs = file.toLowerCase().endsWith(".json") ? parseJson(name, text) : parseCsv(name, text);
  if (pairs.length === 0) throw new PairsFileError(`${name}: no pairs`);
  for (const side of ["alice", "bob"] as const) {
    const seen = new Map<bigint, string>();
    for (const pair of pairs) {
      const first = seen.get(pair[side]);
      if (first) throw new PairsFileError(`${pair.where}: ${side} id ${pair[side]} is already paired at ${first}`);
      seen.set(pair[side], pair.where);
    }
  }
  return pairs;
}

function parseCsv(name: string, text: string): Pair[] {
  const pairs: Pair[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/#.*$/, "").trim();
    const where = `${name}:${index + 1}`;
    if (line === "") return;
    const cells = line.split(",").map((cell) => cell.trim());
    if (pairs.length === 0 && index === firstContentLine(text) && /^[A-Za-z_]/.test(cells[0])) return; // header
    if (cells.length !== 2) throw new PairsFileError(`${where}: expected "alice_id,bob_id", got ${JSON.stringify(raw.trim())}`);
    pairs.push({ alice: parseId(cells[0], "alice", where), bob: parseId(cells[1], "bob", where), where });
  });
  return pairs;
}

function firstContentLine(text: string): number {
  return text.split(/\r?\n/).findIndex((raw) => raw.replace(/#.*$/, "").trim() !== "");
}

function parseJson(name: string, text: string): Pair[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new PairsFileError(`${name}: not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(data)) throw new PairsFileError(`${name}: expected an array of pairs`);
  return data.map((item, index) => {
    const where = `${name}[${index}]`;
    const [alice, bob] =
      Array.isArray(item) && item.length === 2
        ? item
        : item && typeof item === "object"
          ? [(item as Record<string, unknown>).alice, (item as Record<string, unknown>).bob]
          : [];
    if (alice === undefined || bob === undefined) throw new PairsFileError(`${where}: expected [alice, bob] or {"alice": .., "bob": ..}`);
    return { alice: parseId(alice, "alice", where), bob: parseId(bob, "bob", where), where };
  });
}

function parseId(value: unknown, side: string, where: string): bigint {
  const text = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
  const id = parseDecimalId(text, `${where}: ${side} id ${JSON.stringify(value)}`, PairsFileError);
  if (id > MAX_PAIRABLE) throw new PairsFileError(`${where}: ${side} id ${text} is too large (the converter pairs ids up to 2^256 - 2)`);
  return id;
}

export interface RegistrationPlan {
  /** Pairs not registered yet. */
  toRegister: Pair[];
  /** Pairs already registered exactly as in the file. */
  registered: Pair[];
}

/**
 * Compares the file with the chain: pairs already registered as written are skipped; an id registered with another
 * partner is a conflict, refused before any transaction. Asks the chain `concurrency` calls at a time.
 */
export async function planRegistration(
  converter: NFTConverter,
  pairs: Pair[],
  options: { concurrency?: number; progress?: (done: number, total: number) => void } = {},
): Promise<RegistrationPlan> {
  const states = new Array<"new" | "registered">(pairs.length);
  const conflicts: string[] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < pairs.length) {
      const index = next++;
      const pair = pairs[index];
      const [[alicePaired, bobOfAlice], [bobPaired, aliceOfBob]] = await Promise.all([
        converter.bobIdOf(pair.alice),
        converter.aliceIdOf(pair.bob),
      ]);
      if (alicePaired && bobOfAlice === pair.bob && bobPaired && aliceOfBob === pair.alice) {
        states[index] = "registered";
      } else if (alicePaired) {
        conflicts.push(`${pair.where}: alice id ${pair.alice} is already paired on chain with bob id ${bobOfAlice}`);
      } else if (bobPaired) {
        conflicts.push(`${pair.where}: bob id ${pair.bob} is already paired on chain with alice id ${aliceOfBob}`);
      } else {
        states[index] = "new";
      }
      options.progress?.(++done, pairs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 16, pairs.length) }, worker));
  if (conflicts.length > 0) {
    throw new PairsFileError(
      `${conflicts.length} pair(s) conflict with the chain: ${conflicts.slice(0, 5).join("; ")}${conflicts.length > 5 ? "; …" : ""}`,
    );
  }
  return { toRegister: pairs.filter((_, i) => states[i] === "new"), registered: pairs.filter((_, i) => states[i] === "registered") };
}
