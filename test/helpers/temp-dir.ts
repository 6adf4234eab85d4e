import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TempDir {
  path: string;
  /** Removes the folder and all it holds. */
  close(): Promise<void>;
}

/** A new folder in the system's temporary one, named from `prefix`: a suite's or a test's own files. */
export function makeTempDir(prefix: string): TempDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { path: dir, close: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}
