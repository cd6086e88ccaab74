import * as assert from 'assert';
import type { ChatItem } from '../../../../src/shared/views';
import { buildRows, groupLabel } from '../../../../src/webview/chatList/rows';

const card = (
	id: string,
	name = 'read_file',
	status: 'succeeded' | 'running' | 'failed' = 'succeeded',
	effect?: 'write',
): ChatItem => ({
	kind: 'tool',
	id,
	call: { id, name, title: id, argumentsText: '{}', status, ...(effect ? { effect } : {}) },
});

describe('webview rows: grouping identical cards', () => {
	it('folds three or more finished calls of one tool in a row into "Read N files"', () => {
		const rows = buildRows([
			{ kind: 'user', id: 'u', text: 'go' },
			card('a'),
			card('b'),
			card('c'),
			card('d'),
			{ kind: 'assistant', id: 'x', text: 'ok', streaming: false },
		]);
		assert.deepStrictEqual(
			rows.map(r => [r.ids.join(','), r.groupLabel ?? null]),
			[
				['u', null],
				['a,b,c,d', 'Read 4 files'],
				['x', null],
			],
		);
	});

	it('keeps short runs, running or failed calls, other tools and writes apart', () => {
		const rows = buildRows([
			card('a'),
			card('b'),
			card('c', 'read_file', 'running'),
			card('d', 'list_directory'),
			card('e', 'edit_file', 'succeeded', 'write'),
			card('f', 'edit_file', 'succeeded', 'write'),
			card('g', 'edit_file', 'succeeded', 'write'),
			card('h', 'read_file', 'failed'),
		]);
		assert.ok(
			rows.every(r => r.ids.length === 1 && !r.groupLabel),
			JSON.stringify(rows),
		);
	});

	it('says how many files were read, not how many calls were made', () => {
		assert.strictEqual(groupLabel('read_file', 3, ['Read a', 'Read b', 'Read c']), 'Read 3 files');
		assert.strictEqual(
			groupLabel('read_file', 3, ['Read README.md', 'Read README.md', 'Read README.md']),
			'Read README.md 3 times',
		);
		assert.strictEqual(
			groupLabel('read_file', 4, ['Read a', 'Read b', 'Read a', 'Read b']),
			'Read 2 files in 4 calls',
		);
		assert.strictEqual(groupLabel('grep', 3, ['x', 'x', 'x']), 'Searched 3 times');
	});
});
