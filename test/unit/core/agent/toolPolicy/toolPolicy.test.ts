import * as assert from 'assert';
import { AnomalyGuard } from '../../../../../src/core/agent/toolPolicy/anomalyGuard';
import { fencedShellCommands } from '../../../../../src/core/agent/recovery/review/fencedShell';
import {
	augmentSpec,
	clampThreshold,
	dropThinking,
	schemaComplexity,
} from '../../../../../src/core/agent/toolPolicy/tafc';
import {
	classifyToolFailure,
	classifyHttpStatus,
	describeFailure,
	formatToolError,
} from '../../../../../src/core/agent/recovery/toolErrors';
import { defaultToolPolicySettings, ToolPolicy } from '../../../../../src/core/agent/toolPolicy/toolPolicy';
import type { ToolSpec } from '../../../../../src/core/llm/chatModel';

const spec = (
	name: string,
	parameters: Record<string, unknown> = {
		type: 'object',
		properties: { path: { type: 'string' } },
		required: ['path'],
	},
): ToolSpec => ({ name, description: name, parameters });
const complex = spec('deploy', {
	type: 'object',
	properties: {
		env: { type: 'string', enum: ['dev', 'qa', 'stage', 'prod', 'eu', 'us', 'ap', 'sa', 'af', 'me'] },
		target: {
			type: 'object',
			properties: { cluster: { type: 'object', properties: { name: { type: 'string' } } } },
		},
		version: { type: 'string' },
		replicas: { type: 'integer' },
	},
	required: ['env', 'target', 'version', 'replicas'],
});

describe('error taxonomy', () => {
	it('maps HTTP statuses as the specification says', () => {
		assert.deepStrictEqual([400, 422, 401, 403, 429, 500, 503, 404, 410, 418].map(classifyHttpStatus), [
			'invalid_parameters',
			'invalid_parameters',
			'policy_blocked',
			'policy_blocked',
			'rate_limited',
			'server_error',
			'server_error',
			'permanent_failure',
			'permanent_failure',
			'permanent_failure',
		]);
	});

	it('classifies loop outcomes: unknown tool, type mismatch vs missing parameter, timeouts, exit codes, network errors', () => {
		assert.strictEqual(classifyToolFailure({ errorKind: 'unknownTool', message: 'x' }), 'tool_not_found');
		assert.strictEqual(
			classifyToolFailure({
				errorKind: 'invalidArguments',
				message: 'path: Invalid input: expected string, received number',
			}),
			'type_mismatch',
		);
		assert.strictEqual(
			classifyToolFailure({
				errorKind: 'invalidArguments',
				message: 'path: Invalid input: expected string, received undefined',
			}),
			'invalid_parameters',
		);
		assert.strictEqual(
			classifyToolFailure({ errorKind: 'error', message: 'x', fields: { timedOut: true, exitCode: 137 } }),
			'timeout',
		);
		assert.strictEqual(
			classifyToolFailure({
				errorKind: 'error',
				message: '`npm test` failed with exit code 1',
				fields: { exitCode: 1 },
			}),
			'permanent_failure',
		);
		assert.strictEqual(
			classifyToolFailure({ errorKind: 'error', message: 'Could not fetch https://x: getaddrinfo ENOTFOUND x' }),
			'network_error',
		);
		assert.strictEqual(
			classifyToolFailure({ errorKind: 'denied', message: 'The user denied this call' }),
			'policy_blocked',
		);
	});

	it('formats the four-line block with the detail after it; infrastructure is retryable, quality only once', () => {
		assert.strictEqual(
			formatToolError(describeFailure('rate_limited', false), 'too many requests'),
			'[tool_error]\ncategory: rate_limited\nerror: too many requests\nsuggestion: Rate limit exceeded. The system will retry if possible.\nretryable: true',
		);
		assert.match(
			formatToolError(describeFailure('permanent_failure', false), 'failed with exit code 2\nline a\nline b'),
			/retryable: false\nline a\nline b$/,
		);
		assert.strictEqual(describeFailure('invalid_parameters', true).retryable, true);
		assert.strictEqual(describeFailure('invalid_parameters', false).retryable, false);
	});
});

describe('anomaly guard', () => {
	const settings = { enabled: true, windowSize: 4, failureThreshold: 0.7, minCalls: 3 };
	it('blocks past the threshold in the sliding window, and unblocking starts a clean window', () => {
		const guard = new AnomalyGuard();
		assert.strictEqual(guard.record('grep', true, settings), undefined);
		assert.strictEqual(guard.record('grep', false, settings), undefined);
		assert.strictEqual(guard.record('grep', true, settings), undefined, '2 of 3 is below 70%');
		assert.strictEqual(guard.record('grep', true, settings), 0.75);
		assert.ok(guard.isBlocked('grep'));
		assert.deepStrictEqual(guard.unblock('grep'), ['grep']);
		assert.strictEqual(guard.record('grep', true, settings), undefined);
	});

	it('does nothing when switched off', () => {
		const guard = new AnomalyGuard();
		for (let i = 0; i < 10; i++) {
			guard.record('x', true, { ...settings, enabled: false });
		}
		assert.ok(!guard.isBlocked('x'));
	});
});

describe('TAFC and tool dependencies', () => {
	it('scores schema complexity and adds a leading thinking field only above the threshold', () => {
		assert.ok(schemaComplexity(complex.parameters) >= 0.6, String(schemaComplexity(complex.parameters)));
		assert.ok(schemaComplexity(spec('read').parameters) < 0.6);
		const augmented = augmentSpec(complex, { enabled: true, complexityThreshold: 0.6 });
		assert.deepStrictEqual(Object.keys((augmented.parameters as { properties: object }).properties)[0], 'thinking');
		const read = spec('read');
		assert.strictEqual(augmentSpec(read, { enabled: true, complexityThreshold: 0.6 }), read);
		assert.strictEqual(augmentSpec(complex, { enabled: false, complexityThreshold: 0.6 }), complex);
		assert.strictEqual(clampThreshold(Number.NaN), 0.6);
		assert.strictEqual(clampThreshold(7), 1);
		assert.strictEqual(dropThinking('{"thinking":"prod needs 3","env":"prod"}'), '{"env":"prod"}');
		assert.strictEqual(dropThinking('not json'), 'not json');
	});

	it('requires hides a tool until its prerequisite succeeded; prefers moves it up; exclusions are logged', () => {
		const log: string[] = [];
		const policy = new ToolPolicy(
			() => ({
				...defaultToolPolicySettings,
				dependencies: {
					enabled: true,
					rules: { edit_file: { requires: ['read_file'] }, grep: { prefers: ['read_file'] } },
					boostPerDep: 0.15,
					maxTotalBoost: 0.2,
				},
			}),
			line => log.push(line),
		);
		const state = policy.session('s');
		const specs = [spec('list_directory'), spec('edit_file'), spec('read_file'), spec('grep')];
		// Offered in their order all along: a gated tool is refused, never removed or moved.
		assert.deepStrictEqual(
			state.offer(specs).map(s => s.name),
			specs.map(s => s.name),
		);
		assert.match(log[0], /refused until their prerequisites succeed: edit_file \(requires read_file\)/);
		assert.match(
			state.refuse('edit_file', new Set(specs.map(s => s.name))) ?? '',
			/not available until read_file has succeeded/,
		);
		state.record('read_file', true);
		assert.deepStrictEqual(
			state.offer(specs).map(s => s.name),
			specs.map(s => s.name),
		);
		assert.strictEqual(state.refuse('edit_file', new Set(specs.map(s => s.name))), undefined);
	});

	it('dependencies and TAFC are off by default', () => {
		const state = new ToolPolicy().session('s');
		const specs = [spec('edit_file'), complex];
		assert.deepStrictEqual(state.offer(specs), specs);
	});
});

describe('text mode bash blocks', () => {
	it('a reply ending in a bash block is a command; an example followed by prose is not', () => {
		assert.deepStrictEqual(fencedShellCommands('Let me run the tests.\n```bash\n$ npm test\n```'), [
			{ command: 'npm test', prose: 'Let me run the tests.' },
		]);
		assert.deepStrictEqual(fencedShellCommands('Run this:\n```bash\nnpm test\n```\nand tell me.'), []);
		assert.deepStrictEqual(fencedShellCommands('```js\nconsole.log(1)\n```'), []);
	});
});
