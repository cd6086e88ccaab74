/**
 * `npm run eval -- --golden --base-url URL --model NAME [--no-recovery] [--only ID] [--file golden.jsonl]`
 * Measures a model's tool calling on the golden set through Keel's real loop. The API key, if
 * the server needs one, comes from KEEL_API_KEY.
 */
import { printTable } from '../table';
import { loadGolden } from './golden';
import { runEval, summarizeEval } from './runEval';

function arg(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? process.argv[index + 1] : undefined;
}

export async function goldenMain(): Promise<number> {
	const baseUrl = arg('base-url');
	const model = arg('model');
	if (!baseUrl || !model) {
		console.error(
			'usage: npm run eval -- --golden --base-url http://127.0.0.1:11434/v1 --model qwen3:8b [--no-recovery] [--only ID]',
		);
		return 2;
	}
	const only = arg('only');
	const tasks = loadGolden(arg('file')).filter(task => !only || task.id === only);
	const recovery = !process.argv.includes('--no-recovery');
	console.log(`Evaluating ${model} at ${baseUrl} on ${tasks.length} tasks (recovery ${recovery ? 'on' : 'off'})\n`);
	const results = await runEval(tasks, { baseUrl, model, apiKey: process.env.KEEL_API_KEY, recovery }, r =>
		console.log(
			`${r.passed ? 'PASS' : 'FAIL'}  ${r.id}${r.passed ? '' : `  — ${r.why}`}${r.notices.length ? `  [${r.notices.join(', ')}]` : ''}`,
		),
	);
	console.log('');
	printTable(['dimension', 'passed', 'rate'], summarizeEval(results));
	return 0;
}
