import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { SourceImports } from "../helpers/imports";

const ROOT = path.resolve(__dirname, "..", "..");

/**
 * The modules that read a driver's or a library's error, one per source: node-postgres' and PGlite's, and ethers',
 * Node's socket, DNS and HTTP errors. Everywhere else an error is told by its class (`instanceof`) or by what one
 * of these says of it.
 */
const READERS = [path.join("server", "db", "errors.ts"), path.join("server", "chain", "errors.ts")];
/** The one module that names SQLSTATEs. */
const SQLSTATE_MODULE = path.join("server", "db", "errors.ts");

/**
 * A look at the `code` of an error of unknown type: a cast to `any` or to Node's ErrnoException, or an index by the
 * name "code" (a cast to an object type that has a `code` is found by {@link castsWithCode}).
 */
const CODE_PROBES = [
  /\bas\s+any\s*\)\s*\??\.\s*code\b/,
  /\bas\s+NodeJS\.ErrnoException\b/,
  /[\w)\]]\s*\[\s*(["'`])code\1\s*\]/,
  /Reflect\.get\([^)]*(["'`])code\1/,
];

/**
 * The 1-based lines of the casts in `text` to an object type with a `code` member at any depth: `error as { code?:
 * unknown }`, `error as { info?: { error?: { code?: number } } }`, a multi-line one.
 */
function castsWithCode(text: string): number[] {
  const lines: number[] = [];
  for (const match of text.matchAll(/\bas\s*\{/g)) {
    let depth = 0;
    let end = match.index + match[0].length - 1;
    for (; end < text.length; end++) {
      if (text[end] === "{") depth++;
      else if (text[end] === "}" && --depth === 0) break;
    }
    if (/\bcode\??\s*:/.test(text.slice(match.index, end))) lines.push(text.slice(0, match.index).split("\n").length);
  }
  return lines;
}

/** The 1-based lines of `text` with a probe of an error's `code`. */
function codeProbes(text: string): number[] {
  return [...new Set([...castsWithCode(text), ...linesMatching(text, CODE_PROBES)])].sort((a, b) => a - b);
}

/**
 * A SQLSTATE written as a string: five characters, the first two of one of PostgreSQL's error classes (so that most
 * numbers, such as "10000", are not one), and not a setting's default (where "20000" is a number of entries).
 */
const SQLSTATE_LITERAL = /(?<!default: )(["'`])(?:0[0-9A-Z]|2[0-9A-F]|3[4-9BDF]|4[024]|5[3-8]|72|F0|HV|P0|XX)[0-9A-Z]{3}\1/;

/** The 1-based lines of `text` that one of `patterns` matches. */
function linesMatching(text: string, patterns: RegExp[]): number[] {
  const lines = new Set<number>();
  for (const pattern of patterns) {
    for (const match of text.matchAll(new RegExp(pattern.source, "g"))) lines.add(text.slice(0, match.index).split("\n").length);
  }
  return [...lines].sort((a, b) => a - b);
}

/** `file:line` of each line `search` finds in the server's sources, the files of `allowed` left out. */
function found(search: (text: string) => number[], allowed: string[]): string[] {
  return new SourceImports(ROOT)
    .sources("server")
    .filter((file) => !allowed.includes(file))
    .flatMap((file) => search(read(file)).map((line) => `${file}:${line}`));
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const sqlStates = (text: string) => linesMatching(text, [SQLSTATE_LITERAL]);

describe("one error channel: driver and library errors are read in one module per source", function () {
  it("finds the probes and the SQLSTATEs it forbids, and not a typed read or a number", function () {
    const probes = [
      "if ((error as { code?: unknown }).code === 'X') return;",
      "const code = (error as { code?: string } | null)?.code;",
      "const e = error as {\n  error?: { message?: string };\n  code?: string;\n};",
      "const e = error as { info?: { error?: { code?: unknown } } };",
      "if ((error as any).code === 'X') return;",
      "const { code } = error as NodeJS.ErrnoException;",
      'const code = (error as Record<string, unknown>)["code"];',
      'const code = Reflect.get(error as object, "code");',
    ];
    for (const probe of probes) expect(codeProbes(probe), probe).to.deep.equal([1]);
    const typed = [
      "if (error instanceof DomainError && error.code === 'database_full') return;",
      "const code = errorCodeOf(error);",
      "return reply.code(201);",
      "const row = result as { token: string; grant: { id: string } };",
      'const options = { response_types: ["code"] };',
    ];
    for (const line of typed) expect(codeProbes(line), line).to.deep.equal([]);
    for (const state of ['"23505"', "'40001'", '"57P01"', '"53100"', '"22P05"', "`08006`"])
      expect(sqlStates(`x === ${state}`), state).to.deep.equal([1]);
    for (const other of ['default: "10000"', 'default: "65536"', 'default: "20000"', '"ECONNREFUSED"', '"23505x"', "SQLSTATE 53100"])
      expect(sqlStates(other), other).to.deep.equal([]);
  });

  it("the readers exist and are the ones that read a driver's or library's `code`", function () {
    for (const reader of READERS) expect(codeProbes(read(reader)), reader).to.have.length.greaterThan(0);
  });

  it("no other module of the server probes an error's `code`: it asks the reader of its source", function () {
    expect(found(codeProbes, READERS), "use server/db/errors.ts or server/chain/errors.ts").to.deep.equal([]);
  });

  it("SQLSTATEs are named in server/db/errors.ts only", function () {
    expect(sqlStates(read(SQLSTATE_MODULE))).to.have.length.greaterThan(0);
    expect(found(sqlStates, [SQLSTATE_MODULE]), "name it in server/db/errors.ts").to.deep.equal([]);
  });
});
