import { loadConfig } from './config';

export function greet(name: string, greeting = 'Hello'): string {
  return `${greeting}, ${name}!`;
}

const config = loadConfig();
for (const name of config.names) {
  console.log(greet(name, config.greeting));
}
