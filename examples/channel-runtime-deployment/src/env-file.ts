import { readFile } from 'node:fs/promises';

/**
 * Parses a configuration file of `KEY=value` lines, the format both processes' files use here.
 * Deliberately small: blank lines and lines starting with `#` are skipped, an `export ` prefix is
 * allowed (so the file can also be sourced by a shell), and a value wrapped in matching single or
 * double quotes loses them. There are no inline comments and no `$VAR` expansion: a value is
 * everything after the first `=`. Anything else is an error naming the line, so that a typo in a
 * deployment's configuration stops it instead of being ignored.
 */
export function parseEnvFile(text: string, source = 'env file'): Record<string, string> {
  const vars: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(line);
    if (!match) throw new Error(`${source}:${index + 1}: expected KEY=value, got "${line}"`);
    const [, key, rest] = match as unknown as [string, string, string];
    let value = rest.trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) value = value.slice(1, -1);
    vars[key] = value;
  });
  return vars;
}

/** Reads and parses one configuration file; errors name the file and the line. */
export async function readEnvFile(file: string): Promise<Record<string, string>> {
  return parseEnvFile(await readFile(file, 'utf8'), file);
}
