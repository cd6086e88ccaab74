import { loadConfig } from './config.js';

export function greet(name, greeting = 'Hello') {
  return `${greeting}, ${name}!`;
}

const config = loadConfig();
for (const name of config.names) {
  console.log(greet(name, config.greeting));
}
