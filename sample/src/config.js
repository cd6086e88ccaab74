import { readFileSync } from 'node:fs';

export const DEFAULTS = { greeting: 'Hello', names: ['world'] };

/** Reads the config file; a missing file means the defaults, anything else wrong is thrown. */
export function loadConfig(file = 'greeter.config.json') {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return DEFAULTS;
    throw error;
  }
  return { ...DEFAULTS, ...JSON.parse(text) };
}
