/**
 * The golden tool-calling set: tasks with files, a check on the outcome, and a reference
 * solution (used to script the model double in CI; a real model never sees it).
 */
import * as fs from 'fs';
import * as path from 'path';

export interface GoldenTask {
	id: string;
	dimension: string;
	prompt: string;
	files: Record<string, string>;
	check: {
		answerIncludes?: string[];
		file?: { path: string; equals: string };
		calledWith?: { name: string; args: Record<string, unknown> };
	};
	reference: Array<{ call?: { name: string; args: Record<string, unknown> }; text?: string }>;
}

/** Found next to the compiled file's source, so it works from out/ and from a checkout. */
export function goldenPath(): string {
	return path.resolve(__dirname, '..', '..', '..', 'bench', 'eval', 'golden.jsonl');
}

export function loadGolden(file = goldenPath()): GoldenTask[] {
	return fs
		.readFileSync(file, 'utf8')
		.split('\n')
		.filter(line => line.trim())
		.map(line => JSON.parse(line) as GoldenTask);
}
