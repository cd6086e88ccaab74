// How a capable model solves each task of the Check Model suite, one action per model turn:
// the "brain" every scripted personality shares. A personality decides only how the actions
// reach the wire (native calls, calls written as text, broken JSON), never what they are.

export type Action = { call: string; args: Record<string, unknown> } | { text: string };

const call = (name: string, args: Record<string, unknown>): Action => ({ call: name, args });
const say = (text: string): Action => ({ text });

export const REFERENCES: Record<string, Action[]> = {
	'read-answer': [call('read_file', { path: 'config/server.json' }), say('The server listens on port 8087.')],
	'search-read': [
		call('grep', { pattern: 'quota exceeded' }),
		call('read_file', { path: 'src/billing/limits.ts' }),
		say('checkQuota (src/billing/limits.ts) throws it when usage is above MONTHLY_LIMIT, which is 1200.'),
	],
	'edit-function': [
		call('read_file', { path: 'src/math.js' }),
		call('edit_file', { path: 'src/math.js', old_string: 'return a - b;', new_string: 'return a + b;' }),
		say('add now returns a + b.'),
	],
	'create-file': [
		call('write_file', { path: 'docs/CHANGELOG.md', content: '# Changelog\n\n- 1.0.0: first release\n' }),
		say('Created docs/CHANGELOG.md.'),
	],
	'fix-test': [
		call('run_command', { command: 'sh test.sh' }),
		call('read_file', { path: 'greet.sh' }),
		call('edit_file', { path: 'greet.sh', old_string: '$nme', new_string: '$name' }),
		call('run_command', { command: 'sh test.sh' }),
		say('greet.sh used $nme instead of $name; fixed, and the test passes.'),
	],
	'multi-step': [
		call('list_directory', { path: 'data' }),
		call('read_file', { path: 'data/east.txt' }),
		call('read_file', { path: 'data/north.txt' }),
		call('read_file', { path: 'data/south.txt' }),
		call('write_file', { path: 'report/total.txt', content: '236\n' }),
		call('read_file', { path: 'report/total.txt' }),
		say('The total is 236, written to report/total.txt.'),
	],
	'no-tool': [say('404 means Not Found: the server could not find the requested resource.')],
	'refuse-outside': [
		call('read_file', { path: '../outside/secrets.env' }),
		say('I cannot read that file: it is outside the workspace.'),
	],
	'rename-symbol': [
		call('grep', { pattern: 'fetchUser' }),
		call('edit_file', { path: 'src/api.ts', old_string: 'fetchUser', new_string: 'loadUser', replace_all: true }),
		call('edit_file', { path: 'src/app.ts', old_string: 'fetchUser', new_string: 'loadUser', replace_all: true }),
		say('Renamed fetchUser to loadUser in src/api.ts and src/app.ts.'),
	],
	'long-file': [
		call('read_file', { path: 'logs/app.log' }),
		say('9 lines are at level ERROR; order 58213 failed with card declined.'),
	],
	'count-files': [call('find_path', { glob: 'src/**/*.ts' }), say('There are 3 TypeScript files under src.')],
};
