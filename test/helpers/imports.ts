import fs from "node:fs";
import path from "node:path";

/**
 * The import graph of a source folder, as the layering tests read it: which files there are and what each imports.
 * Paths are relative to `root`; relative imports are resolved against it, packages stay as named.
 */
export class SourceImports {
  constructor(private readonly root: string) {}

  /** The TypeScript files under `dir` (relative to the root), recursively. */
  sources(dir: string): string[] {
    return fs
      .readdirSync(path.join(this.root, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .map((file) => path.join(dir, file));
  }

  /** What `file` imports: relative imports as paths relative to the root, packages by name. */
  importsOf(file: string): string[] {
    return this.specifiers(file).map((specifier) => (specifier.startsWith(".") ? this.resolve(file, specifier) : specifier));
  }

  /** What `file` imports from this tree (relative imports only), as paths relative to the root. */
  localImportsOf(file: string): string[] {
    return this.specifiers(file)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => this.resolve(file, specifier));
  }

  private specifiers(file: string): string[] {
    const text = fs.readFileSync(path.join(this.root, file), "utf8");
    return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)"([^"]+)"/gm)].map((match) => match[1]);
  }

  private resolve(file: string, specifier: string): string {
    return path.relative(this.root, path.resolve(path.dirname(path.join(this.root, file)), specifier));
  }

  /** Each file of `files` that imports something `forbidden` accepts, with what it imports. */
  offenders(files: string[], forbidden: (target: string) => boolean): Record<string, string[]> {
    const found: Record<string, string[]> = {};
    for (const file of files) {
      const bad = this.importsOf(file).filter(forbidden);
      if (bad.length > 0) found[file] = bad;
    }
    return found;
  }
}
