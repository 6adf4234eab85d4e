import fs from "node:fs";

/**
 * Compares two heap snapshots of the service (`npm run soak -- --heap-snapshot-minutes N` writes them): what grew
 * between them, per kind of object (its constructor, a closure's function, a string, an array), by count and by
 * size, largest growth first. Usage: node -r ts-node/register/transpile-only bench/soak/heap-diff.ts A B [rows]
 */

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Count and self size per kind of object. */
function tally(file: string): Map<string, { count: number; size: number }> {
  const heap = JSON.parse(fs.readFileSync(file, "utf8")) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const [type, name, size] = ["type", "name", "self_size"].map((field) => fields.indexOf(field));
  const kinds = new Map<string, { count: number; size: number }>();
  for (let i = 0; i < heap.nodes.length; i += fields.length) {
    const kind = types[heap.nodes[i + type]];
    // Objects and closures by their name; strings, arrays, code and the rest by their type alone.
    const key = kind === "object" || kind === "closure" ? `${kind} ${heap.strings[heap.nodes[i + name]]}` : `(${kind})`;
    const entry = kinds.get(key) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += heap.nodes[i + size];
    kinds.set(key, entry);
  }
  return kinds;
}

function main() {
  const [before, after, rows = "30"] = process.argv.slice(2);
  if (!before || !after) throw new Error("usage: heap-diff.ts BEFORE.heapsnapshot AFTER.heapsnapshot [rows]");
  const a = tally(before);
  const b = tally(after);
  const total = (kinds: Map<string, { size: number }>) => [...kinds.values()].reduce((sum, k) => sum + k.size, 0);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(`self sizes: ${kib(total(a))} then ${kib(total(b))} (${kib(total(b) - total(a))})`);
  const changes = [...new Set([...a.keys(), ...b.keys()])].map((key) => {
    const x = a.get(key) ?? { count: 0, size: 0 };
    const y = b.get(key) ?? { count: 0, size: 0 };
    return { key, count: y.count - x.count, size: y.size - x.size, now: y.count };
  });
  changes.sort((p, q) => q.size - p.size);
  for (const c of changes.slice(0, Number(rows)))
    console.log(`${kib(c.size).padStart(14)}  ${String(c.count).padStart(8)} objects (now ${c.now})  ${c.key}`);
}

main();
