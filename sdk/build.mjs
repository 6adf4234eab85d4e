// The package's build: ESM in dist/esm, CommonJS in dist/cjs (each marked so by a package.json of its own), each with its
// types. TypeScript comes from the repository's root install (npm run build --prefix sdk, or the root build).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const tsc = path.join(here, "..", "node_modules", "typescript", "bin", "tsc");
fs.rmSync(path.join(here, "dist"), { recursive: true, force: true });
for (const config of ["tsconfig.json", "tsconfig.cjs.json"]) {
  execFileSync(process.execPath, [tsc, "-p", path.join(here, config)], { stdio: "inherit" });
}
for (const [folder, type] of [
  ["esm", "module"],
  ["cjs", "commonjs"],
]) {
  fs.writeFileSync(path.join(here, "dist", folder, "package.json"), `${JSON.stringify({ type })}\n`);
}
