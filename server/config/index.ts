import { NETWORKS, networkVariable } from "../chain/registry";
import { ConfigError, Invalid } from "./parsers";
import { compose, SETTINGS, variableAt, type Config, type Refuse, type Setting, type Settings } from "./settings";

export { ConfigError } from "./parsers";
export type { Config, ConverterRef, DatabaseConfig, ReplicaConfig, TokenMetadataConfig } from "./settings";

type Env = Record<string, string | undefined>;

export interface LoadOptions {
  /** Gets the one warning line about settings set under an old name (default: stderr). */
  onWarning?: (line: string) => void;
  /** For process entries: a bad value prints its one line (`Configuration error: …`) and exits with code 1 instead of throwing. */
  exitOnError?: boolean;
}

/**
 * The configuration from the environment, as server/config/settings.ts declares it; a bad value throws ConfigError,
 * naming the variable as it was set.
 */
export function loadConfig(env: Env = process.env, options: LoadOptions = {}): Config {
  const { onWarning = (line: string) => console.warn(line), exitOnError = false } = options;
  try {
    const { settings, refuse } = readSettings(env);
    const config = compose(settings, refuse);
    const warning = renameWarning(env);
    if (warning !== undefined) onWarning(warning);
    return config;
  } catch (error) {
    if (!exitOnError || !(error instanceof ConfigError)) throw error;
    console.error(error.line);
    process.exit(1);
  }
}

/** Every setting at its default, as when none is set (before the rules across settings). */
export function settingDefaults(): Settings {
  return readSettings({}).settings;
}

/** A value as set: the variable it came from (the name, or an old one) and the unit factor of that variable. */
interface Given {
  variable: string;
  value: string;
  unit: number;
}

function readSettings(env: Env): { settings: Settings; refuse: Refuse } {
  const settings: Record<string, unknown> = {};
  const given = new Map<string, Given>();
  for (const setting of SETTINGS as readonly Setting[]) {
    let value: unknown;
    if (setting.name.includes("<NETWORK>")) value = readFamily(env, setting);
    else {
      const set = valueSet(env, setting);
      if (set) given.set(setting.path, set);
      value = parsed(
        set ?? (setting.default === undefined ? undefined : { variable: setting.name, value: setting.default, unit: 1 }),
        setting,
      );
    }
    placeAt(settings, setting.path, value);
  }
  const refuse: Refuse = (path, expected, shown) => {
    const set = given.get(path);
    throw new ConfigError(set?.variable ?? variableAt(path), expected, shown ?? set?.value ?? "");
  };
  return { settings: settings as Settings, refuse };
}

/** The value set under the name, or else under an old one. */
function valueSet(env: Env, setting: Setting): Given | undefined {
  const value = nonEmpty(env[setting.name]);
  if (value !== undefined) return { variable: setting.name, value, unit: 1 };
  for (const old of setting.replaces ?? []) {
    const oldValue = nonEmpty(env[old.name]);
    if (oldValue !== undefined) return { variable: old.name, value: oldValue, unit: old.factor ?? 1 };
  }
  return undefined;
}

function parsed(given: Given | undefined, setting: Setting): unknown {
  if (given === undefined) return undefined;
  try {
    return setting.parse(given.value, given.unit);
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    throw new ConfigError(given.variable, error.expected, error.shown ?? given.value);
  }
}

/**
 * A family's values by network (`RPC_URL_<NETWORK>`): the ones set, and the default for the others when it has one.
 * A variable of the family that names no known network is refused, so that a misspelt one is not silently left out.
 */
function readFamily(env: Env, family: Setting): Record<string, unknown> {
  const byVariable = new Map(Object.keys(NETWORKS).map((network) => [networkVariable(family.name, network), network]));
  const values: Record<string, unknown> = {};
  if (family.default !== undefined) {
    const value = parsed({ variable: family.name, value: family.default, unit: 1 }, family);
    for (const network of byVariable.values()) values[network] = value;
  }
  const [prefix, suffix] = family.name.split("<NETWORK>");
  for (const [variable, value] of Object.entries(env)) {
    if (!variable.startsWith(prefix) || !variable.endsWith(suffix) || nonEmpty(value) === undefined) continue;
    const network = byVariable.get(variable);
    if (network === undefined) throw new ConfigError(variable, `one of ${[...byVariable.keys()].join(", ")}`, variable);
    values[network] = parsed({ variable, value: value!, unit: 1 }, family);
  }
  return values;
}

function placeAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  const last = keys.pop()!;
  let group = target;
  for (const key of keys) group = (group[key] ??= {}) as Record<string, unknown>;
  group[last] = value;
}

/**
 * The one warning line for settings set under an old name (undefined when none): each old name with its new name,
 * and when both are set, that the new one wins.
 */
function renameWarning(env: Env): string | undefined {
  const notes: string[] = [];
  for (const setting of SETTINGS as readonly Setting[]) {
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

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
