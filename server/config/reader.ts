import { Value } from "typebox/value";
import { SETTINGS, type Setting } from "./settings";

type Env = Record<string, string | undefined>;

/** Thrown for a bad environment value; its message is the one line printed before exiting. */
export class ConfigError extends Error {
  constructor(variable: string, expected: string, got: string) {
    super(`${variable}: expected ${expected}, got ${JSON.stringify(got)}`);
    this.name = "ConfigError";
  }
}

/** What the schema's JSON Schema keywords say a value must be, for the error line and the docs. */
interface Shape {
  type?: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  anyOf?: { const: string }[];
}

/** The declared setting of a variable: its entry, or the family (`RPC_URL_<NETWORK>`) it belongs to. */
function settingOf(name: string, settings: readonly Setting[] = SETTINGS): Setting | undefined {
  return settings.find((setting) =>
    setting.name.includes("<NETWORK>")
      ? new RegExp(`^${setting.name.replace("<NETWORK>", "[A-Z0-9_]+")}$`).test(name)
      : setting.name === name,
  );
}

/**
 * Typed reads of environment variables, each declared in the settings list (its type, range and default come from
 * there); a value given under an old name is read, converted to the new unit, and any failure names that old name.
 */
export class Reader {
  constructor(
    private readonly env: Env,
    private readonly settings: readonly Setting[] = SETTINGS,
  ) {}

  private declared(name: string): Setting {
    const setting = settingOf(name, this.settings);
    if (!setting) throw new Error(`${name} is not declared in server/config/settings.ts`);
    return setting;
  }

  /** The value set, under the name or else an old one, with the variable it came from and the unit factor. */
  private raw(name: string): { variable: string; value: string; factor: number } | undefined {
    const setting = this.declared(name);
    const value = nonEmpty(this.env[name]);
    if (value !== undefined) return { variable: name, value, factor: 1 };
    for (const old of setting.replaces ?? []) {
      const oldValue = nonEmpty(this.env[old.name]);
      if (oldValue !== undefined) return { variable: old.name, value: oldValue, factor: old.factor ?? 1 };
    }
    return undefined;
  }

  /** The value as set, or the declared default; undefined when neither. */
  optional(name: string): string | undefined {
    return this.raw(name)?.value ?? this.declared(name).default;
  }

  string(name: string, fallback?: string): string {
    return this.raw(name)?.value ?? this.fallback(name, fallback);
  }

  int(name: string, fallback?: number): number {
    const shape = this.declared(name).type as Shape;
    const raw = this.raw(name);
    if (raw === undefined) return fallback ?? Number(this.fallback(name));
    const min = Math.ceil(shape.minimum! / raw.factor);
    const max = Math.floor(shape.maximum! / raw.factor);
    const value = Number(raw.value);
    if (!/^-?\d+$/.test(raw.value) || value < min || value > max) {
      throw new ConfigError(raw.variable, `an integer from ${min} to ${max}`, raw.value);
    }
    return value * raw.factor;
  }

  bool(name: string, fallback?: boolean): boolean {
    const raw = this.raw(name);
    if (raw === undefined) return fallback ?? this.fallback(name) === "true";
    const value = parseBool(raw.value);
    if (value === undefined) throw new ConfigError(raw.variable, expected(this.declared(name)), raw.value);
    return value;
  }

  oneOf<T extends string>(name: string, fallback?: T): T {
    const setting = this.declared(name);
    const raw = this.raw(name);
    if (raw === undefined) return fallback ?? (this.fallback(name) as T);
    if (!Value.Check(setting.type, raw.value)) throw new ConfigError(raw.variable, expected(setting), raw.value);
    return raw.value as T;
  }

  url(name: string, fallback?: string): string {
    const raw = this.raw(name);
    if (raw === undefined) return this.fallback(name, fallback);
    if (!isHttpUrl(raw.value)) throw new ConfigError(raw.variable, expected(this.declared(name)), raw.value);
    return raw.value;
  }

  /** One or more http(s) URLs, comma-separated (spaces around the commas allowed). */
  urls(name: string): string[] {
    const raw = this.raw(name);
    if (raw === undefined) return [];
    const urls = raw.value.split(",").map((url) => url.trim());
    if (!urls.every(isHttpUrl)) throw new ConfigError(raw.variable, expected(this.declared(name)), raw.value);
    return urls;
  }

  private fallback(name: string, given?: string): string {
    const value = given ?? this.declared(name).default;
    if (value === undefined) throw new Error(`${name} has no default: loadConfig must give one`);
    return value;
  }
}

/** What a value of the setting must be, in the words of the error line. */
function expected(setting: Setting): string {
  const shape = setting.type as Shape;
  if (shape.type === "integer") return `an integer from ${shape.minimum} to ${shape.maximum}`;
  if (shape.type === "boolean") return "true or false";
  if (shape.anyOf) return `one of ${shape.anyOf.map((literal) => literal.const).join(", ")}`;
  if (shape.format === "http-url") return "an http(s) URL";
  if (shape.format === "http-urls") return "one or more http(s) URLs, comma-separated";
  return "a string";
}

/**
 * The one warning line for settings set under an old name (undefined when none): each old name with its new name,
 * and when both are set, that the new one wins.
 */
export function renameWarning(env: Env, settings: readonly Setting[] = SETTINGS): string | undefined {
  const notes: string[] = [];
  for (const setting of settings) {
    for (const old of setting.replaces ?? []) {
      if (nonEmpty(env[old.name]) === undefined) continue;
      const unit = old.factor === 1000 ? " (in milliseconds: the value was converted)" : "";
      notes.push(
        nonEmpty(env[setting.name]) === undefined
          ? `${old.name} is now ${setting.name}${unit}`
          : `${old.name} is ignored: ${setting.name}, its new name, is set too and wins`,
      );
    }
  }
  return notes.length === 0 ? undefined : `Configuration warning: renamed settings: ${notes.join("; ")}`;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

function parseBool(raw: string): boolean | undefined {
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  return undefined;
}
