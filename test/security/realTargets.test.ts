// Deny rules decide on the real target. A rule the user wrote for every tool ("*") on a folder
// holds for what a command writes there through symlinks inside the workspace (redirects and
// the file arguments of cp, mv, tee, sed -i, dd, touch, rm), for a copy into the folder named
// by its link, and for what grep and find_path return. Real bash runs whatever Keel lets run;
// the search tools run real ripgrep. Commands are auto-approved: only the rule can stop them.
import * as fs from 'fs';
import * as path from 'path';
import type { PermissionRule } from '../../src/core/gate/rules/permissions';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import { defaultPathPolicy } from '../../src/core/gate/paths/pathPolicy';
import { deniedPathGlobs } from '../../src/core/gate/rules/permissionsMerge';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { tempTree, type TempTree } from '../support/tempTree';
import { toolHarness } from '../support/toolHarness';
import { LocalBashRunner } from './support/bashRunner';
import { attack } from './tally';

const KLASS = 'gate: real targets';
const CANARY = 'CANARY_REAL_TARGET_5e02';

/** The same folder in the rule's glob dialect: case, braces, extglobs, anchored or not. */
const PATTERNS = [
	'secrets/**',
	'**/secrets/**',
	'SECRETS/**',
	'Secrets/*',
	'{secrets,vault}/**',
	'+(secrets|vault)/**',
	'@(secrets)/*',
	'secrets/*',
	'**/*.key',
];
/** Ways into secrets/ from elsewhere in the workspace. */
const VIA = ['lnk', 'alias', 'deep/l2', 'deep/../lnk', '"lnk"', 'lnk/.'];

function writers(via: string): string[] {
	return [
		`echo x > ${via}/new.key`,
		`echo x >> ${via}/api.key`,
		`echo x | tee ${via}/new.key`,
		`echo x | tee -a ${via}/api.key`,
		`cp src/a.key ${via}/new.key`,
		`cp src/a.key ${via}`,
		`cp -t ${via} src/a.key`,
		`mv src/m.key ${via}/`,
		`install -m 644 src/a.key ${via}/inst.key`,
		`sed -i s/C/D/ ${via}/api.key`,
		`touch ${via}/t.key`,
		`dd if=src/a.key of=${via}/dd.key status=none`,
		`rm ${via}/api.key`,
		`truncate -s 0 ${via}/api.key`,
		`echo x 2> ${via}/err.key`,
		`ln -s ../src/a.key ${via}/ln.key`,
	];
}

describe('security (gate): deny rules decide on the real target', function () {
	this.timeout(120_000);
	let tree: TempTree;
	let ws: string;
	const reset = () => {
		fs.rmSync(path.join(ws, 'secrets'), { recursive: true, force: true });
		fs.mkdirSync(path.join(ws, 'secrets'));
		fs.writeFileSync(path.join(ws, 'secrets/api.key'), CANARY);
		fs.writeFileSync(path.join(ws, 'src/a.key'), 'a');
		fs.writeFileSync(path.join(ws, 'src/m.key'), 'm');
	};
	const secretsIntact = () => {
		const names = fs.readdirSync(path.join(ws, 'secrets')).join(',');
		return names === 'api.key' && fs.readFileSync(path.join(ws, 'secrets/api.key'), 'utf8') === CANARY;
	};
	before(() => {
		tree = tempTree('keel-g9-');
		tree.add({
			'ws/src/a.key': 'a',
			'ws/lnk': { link: 'secrets' },
			'ws/alias': { link: 'lnk' },
			'ws/deep/l2': { link: '../secrets' },
			'home/.keep': '',
		});
		ws = path.join(tree.base, 'ws');
		reset();
	});
	after(() => tree.cleanup());

	const harness = (rules: PermissionRule[]) => {
		const runner = new LocalBashRunner(ws, path.join(tree.base, 'home'));
		const shell = createShellTools({
			selector: new ShellBackendSelector(
				() => 'terminal',
				Object.assign(runner, { available: async () => false }),
				runner,
			),
			settings: () => ({ timeoutSeconds: 5, outputLimitBytes: 100_000, memoryMb: 512, pids: 256 }),
		});
		// As the host wires it: the path policy carries the deny rules' globs for searches.
		return toolHarness(ws, {
			settings: { autoApprove: { read: true, write: true, exec: true }, rules },
			extra: shell,
			deps: { pathPolicy: () => ({ ...defaultPathPolicy, denySearch: deniedPathGlobs(rules, 'grep') }) },
		});
	};

	for (const match of PATTERNS) {
		const rules: PermissionRule[] = [{ tool: '*', match, action: 'deny' }];
		for (const via of VIA) {
			for (const line of writers(via)) {
				it(`${match}: ${line}`, () =>
					attack(
						`${match} ${line}`,
						async () => {
							reset();
							const result = await harness(rules).run('run_command', { command: line });
							return secretsIntact() ? undefined : `secrets/ changed (${result.card.status})`;
						},
						KLASS,
					));
			}
		}
		const searches: Array<[string, Record<string, unknown>]> = [
			['grep', { pattern: CANARY }],
			['grep', { pattern: CANARY, path: '**' }],
			['grep', { pattern: CANARY, path: '*/*.key' }],
			['grep', { pattern: CANARY.toLowerCase(), caseSensitive: false }],
			['find_path', { glob: '**/*' }],
			['find_path', { glob: '**/*.key' }],
			['find_path', { glob: 'secrets/*' }],
			['find_path', { glob: '*/api.key' }],
		];
		for (const [tool, input] of searches) {
			it(`${match}: ${tool} ${JSON.stringify(input)}`, () =>
				attack(
					`${match} ${tool} ${JSON.stringify(input)}`,
					async () => {
						reset();
						const result = await harness(rules).run(tool, input);
						return /(secrets|lnk|alias|l2)\/api\.key/i.test(result.output)
							? result.output.slice(0, 80)
							: undefined;
					},
					KLASS,
				));
		}
	}
});
