/**
 * `npm run bench`: runs every bench/*.bench.ts module in turn. Each prints its own figures
 * next to the reference it is compared with. Figures only: nothing here passes or fails.
 * Run one module with `npm run bench -- <name>` (e.g. `loop`).
 */
import * as fs from 'fs';
import * as path from 'path';

export interface BenchModule {
	title: string;
	run(): Promise<void>;
}

async function main(): Promise<void> {
	const only = process.argv.slice(2);
	const files = fs
		.readdirSync(__dirname)
		.filter(file => file.endsWith('.bench.js'))
		.filter(file => only.length === 0 || only.some(name => file.startsWith(name)))
		.sort();
	for (const file of files) {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const module = require(path.join(__dirname, file)) as BenchModule;
		console.log(`\n## ${module.title}\n`);
		try {
			await module.run();
		} catch (error) {
			// One broken bench must not hide the others' figures.
			console.log(`(could not measure: ${(error as Error).message})`);
		}
	}
}

void main().then(() => process.exit(0));
