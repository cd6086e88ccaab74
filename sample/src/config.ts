import { readFileSync } from 'fs';

export interface Config {
  greeting: string;
  names: string[];
}

export const DEFAULTS: Config = { greeting: 'Hello', names: ['world'] };

/** Reads the config file; a missing file means the defaults, anything else wrong is thrown. */
export function loadConfig(file = 'greeter.config.json'): Config {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULTS;
    throw error;
  }
  return { ...DEFAULTS, ...(JSON.parse(text) as Partial<Config>) };
}
