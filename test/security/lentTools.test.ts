// Tools Keel lends to other agents (VS Code's Language Model Tools) obey the user's rules: the
// same permission rules, path policy, deny-read and approval as inside Keel. Real tools on a
// real disk, called as VS Code calls them. An attempt gets through when the calling agent reads
// what the user's rules refuse, or a call that needs approval runs without VS Code having asked.
import * as fs from 'fs';
import * as path from 'path';
import type { ApprovalSettings } from '../../src/core/agent/approval/approvalPolicy';
import type { PermissionRule } from '../../src/core/gate/rules/permissions';
import { NodeWorkspace } from '../../src/core/tools/files/nodeWorkspace';
import { defaultPathPolicy } from '../../src/core/gate/paths/pathPolicy';
import { tempTree, type TempTree } from '../support/tempTree';
import { lentCall } from './support/gateWiring';
import { attack } from './tally';

const KLASS = 'gate: lent tools';
const SECRET = 'CANARY_LENT_SECRET_77aa';
const PLAIN = 'CANARY_LENT_PLAIN_3c90';

const RULES: PermissionRule[][] = [
	[{ tool: 'read_file', match: 'secrets/**', action: 'deny' }],
	[{ tool: '*', match: 'secrets/**', action: 'deny' }],
	[{ tool: '*', match: 'SECRETS/**', action: 'deny' }],
	[{ tool: '*', match: '**/secrets/**', action: 'deny' }],
	[{ tool: '*', match: '{secrets,vault}/**', action: 'deny' }],
	[{ tool: '*', match: '+(secrets|vault)/**', action: 'deny' }],
	[{ tool: 'read_file', action: 'deny' }],
	[{ tool: '*', match: 'secrets/*', action: 'deny' }],
];

const CALLS: Array<[string, Record<string, unknown>]> = [
	['keel_read_file', { path: 'secrets/key.txt' }],
	['keel_read_file', { path: './secrets/key.txt' }],
	['keel_read_file', { path: 'src/../secrets/key.txt' }],
	['keel_read_file', { path: 'Secrets/key.txt' }],
	['keel_read_file', { path: 'alias/key.txt' }],
	['keel_list_directory', { path: 'secrets' }],
	['keel_list_directory', { path: 'alias' }],
	['keel_find_path', { glob: '**/*' }],
	['keel_find_path', { glob: 'secrets/**' }],
	['keel_grep', { pattern: 'CANARY_LENT' }],
	['keel_grep', { pattern: 'CANARY_LENT', path: 'secrets/**' }],
];

/** Whether a rule covers the call at all: a rule names the tool or every tool ("*"). */
function covers(rules: PermissionRule[], tool: string): boolean {
	return rules.some(rule => rule.tool === '*' || `keel_${rule.tool}` === tool);
}

describe('security (gate): tools lent to other agents obey the user', function () {
	this.timeout(60_000);
	let tree: TempTree;
	let workspace: NodeWorkspace;
	before(() => {
		tree = tempTree('keel-g7-');
		tree.add({
			'ws/src/a.ts': 'a',
			'ws/notes.txt': `${PLAIN}\n`,
			'ws/secrets/key.txt': `${SECRET}\n`,
			'ws/Secrets': { link: 'secrets' },
			'ws/alias': { link: 'secrets' },
			'ws/.env': `T=${SECRET}\n`,
			'outside/x.txt': SECRET,
		});
		fs.linkSync(path.join(tree.base, 'outside/x.txt'), path.join(tree.base, 'ws/hard.txt'));
		workspace = new NodeWorkspace(path.join(tree.base, 'ws'));
	});
	after(() => tree.cleanup());

	for (const rules of RULES) {
		const settings: ApprovalSettings = { autoApprove: { read: true }, rules };
		for (const [tool, input] of CALLS.filter(([tool]) => covers(rules, tool))) {
			it(`${JSON.stringify(rules[0])}: ${tool} ${JSON.stringify(input)}`, () =>
				attack(
					`lent ${JSON.stringify(rules[0])} ${tool} ${JSON.stringify(input)}`,
					async () => {
						const output = await lentCall(workspace, settings, defaultPathPolicy, tool, input);
						if (output.includes(SECRET) || /(^|\n|\/)key\.txt/.test(output)) {
							return `the deny rule did not hold: ${output.slice(0, 80)}`;
						}
						// A search leaves the denied files out; a call on the denied file itself must say why it was refused.
						return tool.endsWith('_find_path') ||
							tool.endsWith('_grep') ||
							/not allowed|refused|denied|not shown/i.test(output)
							? undefined
							: `refused without saying so: ${output.slice(0, 80)}`;
					},
					KLASS,
				));
		}
	}

	// keel.approval.autoApproveReads off: a read asks; VS Code shows Keel's confirmation first.
	const asking: ApprovalSettings = { autoApprove: { read: false } };
	for (const [tool, input] of [
		['keel_read_file', { path: 'notes.txt' }],
		['keel_grep', { pattern: 'CANARY_LENT_PLAIN' }],
		['keel_list_directory', { path: '.' }],
		['keel_find_path', { glob: '*.txt' }],
	] as const) {
		it(`${tool} does not run unconfirmed when reads ask`, () =>
			attack(
				`lent unconfirmed ${tool}`,
				async () => {
					const output = await lentCall(workspace, asking, defaultPathPolicy, tool, input, false);
					return output.includes(PLAIN) || /notes\.txt/.test(output)
						? `ran without approval: ${output.slice(0, 60)}`
						: undefined;
				},
				KLASS,
			));
	}

	// The path policy itself: deny-read, hard links, links out (these held before too).
	for (const target of ['.env', '.ENV', 'hard.txt', '../outside/x.txt', 'alias/../.env']) {
		it(`keel_read_file ${target} is refused`, () =>
			attack(
				`lent deny-read ${target}`,
				async () => {
					const output = await lentCall(
						workspace,
						{ autoApprove: { read: true } },
						defaultPathPolicy,
						'keel_read_file',
						{
							path: target,
						},
					);
					return output.includes(SECRET) ? `read ${target}` : undefined;
				},
				KLASS,
			));
	}
});
