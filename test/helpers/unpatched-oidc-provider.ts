import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
const INSTALLED = path.join(ROOT, "node_modules", "oidc-provider");

/** The environment variable that tells unpatched-oidc-provider-preload.ts which copy to load. */
export const UNPATCHED_OIDC_PROVIDER = "UNPATCHED_OIDC_PROVIDER";

/** The preload (`node -r`) that has `oidc-provider` resolve to the copy named by UNPATCHED_OIDC_PROVIDER. */
export const UNPATCHED_PRELOAD = path.join(__dirname, "unpatched-oidc-provider-preload.ts");

export interface UnpatchedCopy {
  /** The copy's directory (what `node_modules/oidc-provider` would be without patches/). */
  dir: string;
  /** Its entry, for `import()` or `require`. */
  entry: string;
  remove(): void;
}

/**
 * oidc-provider as `npm ci --ignore-scripts` leaves it: a copy of the installed library with patches/ reversed. It
 * lives under node_modules/.cache, so that its own imports (koa, jose, ...) resolve to the installed ones.
 */
export function unpatchedOidcProvider(): UnpatchedCopy {
  const cache = path.join(ROOT, "node_modules", ".cache");
  fs.mkdirSync(cache, { recursive: true });
  const dir = path.join(fs.mkdtempSync(path.join(cache, "unpatched-")), "oidc-provider");
  fs.cpSync(INSTALLED, dir, { recursive: true });
  for (const name of fs.readdirSync(path.join(ROOT, "patches"))) {
    if (!name.startsWith("oidc-provider+")) continue;
    for (const [file, reversed] of reversePatch(fs.readFileSync(path.join(ROOT, "patches", name), "utf8"), dir)) {
      fs.writeFileSync(file, reversed);
    }
  }
  return { dir, entry: path.join(dir, "lib", "index.js"), remove: () => fs.rmSync(path.dirname(dir), { recursive: true, force: true }) };
}

/**
 * The files of `dir` (a copy of the patched package) as they were before `patch` (a patch-package diff): each hunk's
 * new lines replaced by its old ones. Throws when a hunk's new lines are not there (the copy is not patched).
 */
function reversePatch(patch: string, dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const section of patch.split(/^diff --git /m).slice(1)) {
    const target = /^a\/node_modules\/oidc-provider\/(\S+)/.exec(section)?.[1];
    if (!target) throw new Error(`a patch section names no file of oidc-provider: ${section.slice(0, 80)}`);
    const file = path.join(dir, target);
    let text = files.get(file) ?? fs.readFileSync(file, "utf8");
    for (const hunk of section.split(/^@@[^\n]*@@[^\n]*\n/m).slice(1)) {
      const lines = hunk.replace(/\n$/, "").split("\n");
      const side = (skip: string) =>
        lines
          .filter((line) => !line.startsWith(skip) && !line.startsWith("\\"))
          .map((line) => line.slice(1))
          .join("\n");
      const [before, after] = [side("+"), side("-")];
      if (!text.includes(after)) throw new Error(`${target} is not patched as patches/ says`);
      text = text.replace(after, () => before);
    }
    files.set(file, text);
  }
  return files;
}
