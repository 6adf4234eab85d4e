/**
 * How a setting's value is read from its text: each setting of server/config/settings.ts names one of these (or its
 * own), and a value it refuses stops the start with the line `<VARIABLE>: expected <what>, got "<value>"`.
 */

/** Reads one value; `unit` converts a value set under an old name in another unit (seconds: 1000). */
export type Parser<T> = (value: string, unit: number) => T;

/** Thrown by a parser for a value it refuses: what it expects and, for a secret, what to show instead of the value. */
export class Invalid extends Error {
  constructor(
    readonly expected: string,
    readonly shown?: string,
  ) {
    super(expected);
  }
}

/** Thrown for a bad environment value; its message is the one line printed before exiting. */
export class ConfigError extends Error {
  constructor(variable: string, expected: string, got: string) {
    super(`${variable}: expected ${expected}, got ${JSON.stringify(got)}`);
    this.name = "ConfigError";
  }

  /** The line a process prints for it. */
  get line(): string {
    return `Configuration error: ${this.message}`;
  }
}

/** An integer in a range; under an old name in another unit the range is that unit's, and the value is converted. */
export function int(minimum: number, maximum: number): Parser<number> {
  return (value, unit) => {
    const min = Math.ceil(minimum / unit);
    const max = Math.floor(maximum / unit);
    const number = Number(value);
    if (!/^-?\d+$/.test(value) || number < min || number > max) throw new Invalid(`an integer from ${min} to ${max}`);
    return number * unit;
  };
}

export function bool(value: string): boolean {
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw new Invalid("true or false");
}

export function text(value: string): string {
  return value;
}

export function oneOf<const T extends string>(values: readonly T[]): Parser<T> {
  return (value) => {
    if (!(values as readonly string[]).includes(value)) throw new Invalid(`one of ${values.join(", ")}`);
    return value as T;
  };
}

export function httpUrl(value: string): string {
  if (!isHttpUrl(value)) throw new Invalid("an http(s) URL");
  return value;
}

/** One or more http(s) URLs, comma-separated (spaces around the commas allowed). */
export function httpUrls(value: string): string[] {
  const urls = value.split(",").map((url) => url.trim());
  if (!urls.every(isHttpUrl)) throw new Invalid("one or more http(s) URLs, comma-separated");
  return urls;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

const POSTGRES = "postgres:// or postgresql://";

export function postgresUrl(value: string): string {
  if (!isPostgresUrl(value)) throw new Invalid(`a ${POSTGRES} URL`);
  return value;
}

/** Comma-separated PostgreSQL URLs; a refused one is shown without its password. Only spaces: none. */
export function postgresUrls(value: string): string[] | undefined {
  if (value.trim() === "") return undefined;
  const urls = value.split(",").map((url) => url.trim());
  const bad = urls.find((url) => !isPostgresUrl(url));
  if (bad !== undefined) throw new Invalid(`comma-separated ${POSTGRES} URLs`, redactedUrl(bad));
  return urls;
}

function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\/\S+$/.test(value);
}

/** A database URL without its password, for error lines. */
function redactedUrl(url: string): string {
  return url.replace(/\/\/([^/:@]*):[^/@]*@/, "//$1:***@");
}

/** Comma-separated 0x addresses, in lower case. */
export function addresses(value: string): string[] {
  return value.split(",").map((address) => {
    const trimmed = address.trim();
    if (!isAddress(trimmed)) throw new Invalid("comma-separated 0x addresses");
    return trimmed.toLowerCase();
  });
}

export function isAddress(value: string): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(value);
}
