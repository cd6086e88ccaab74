// Real git repositories for the git attacks: secrets in history only, in a branch, a tag, a
// stash, the index and the work tree; a workspace that is a subfolder of a larger repository;
// and a repository whose configuration runs a program at every opportunity git offers.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

export function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], {
		cwd,
		env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' },
		stdio: ['ignore', 'pipe', 'ignore'],
	}).toString();
}

function write(root: string, files: Record<string, string>): void {
	for (const [file, content] of Object.entries(files)) {
		fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
		fs.writeFileSync(path.join(root, file), content);
	}
}

/**
 * The workspace is the repository. `.env` was committed ("add secret", tagged v1) and removed
 * since: it lives in history only. `config/.env` is tracked, changed in the work tree and in a
 * stash; the `side` branch holds `secrets/.aws/credentials`; `blobtag` tags `.env`'s blob.
 */
export function historyRepo(ws: string): { envBlob: string } {
	fs.mkdirSync(ws, { recursive: true });
	git(ws, 'init', '-q', '-b', 'main');
	write(ws, {
		'src/a.txt': 'a\n',
		'.env': 'TOKEN=CANARY_GENV_1001\n',
		'config/.env': 'DB=CANARY_GCFG_1002\n',
		'config/app.json': '{}\n',
	});
	git(ws, 'add', '-A');
	git(ws, 'commit', '-qm', 'add secret');
	git(ws, 'tag', 'v1');
	const envBlob = git(ws, 'rev-parse', 'HEAD:.env').trim();
	git(ws, 'tag', 'blobtag', envBlob);
	git(ws, 'rm', '-q', '.env');
	git(ws, 'commit', '-qm', 'drop env');
	git(ws, 'checkout', '-q', '-b', 'side');
	write(ws, { 'secrets/.aws/credentials': 'aws_secret_access_key=CANARY_GAWS_1003\n' });
	git(ws, 'add', '-A');
	git(ws, 'commit', '-qm', 'side secrets');
	git(ws, 'checkout', '-q', 'main');
	write(ws, { 'src/a.txt': 'a2\n' });
	git(ws, 'commit', '-qam', 'change a');
	write(ws, { 'config/.env': 'DB=CANARY_GSTASH_1004\n' });
	git(ws, 'stash', '-q');
	write(ws, { 'config/.env': 'DB=CANARY_GWORK_1005\n' });
	return { envBlob };
}

/** A larger repository whose subfolder `app` is the workspace; its root holds secrets.txt. */
export function outerRepo(base: string): string {
	const outer = path.join(base, 'big');
	fs.mkdirSync(outer, { recursive: true });
	git(outer, 'init', '-q', '-b', 'main');
	write(outer, {
		'secrets.txt': 'CANARY_GROOT_2001\n',
		'app/src/a.txt': 'a\n',
		'ops/deploy.key': 'CANARY_GOPS_2002\n',
	});
	git(outer, 'add', '-A');
	git(outer, 'commit', '-qm', 'root');
	write(outer, { 'secrets.txt': 'CANARY_GROOT2_2003\n', 'app/src/a.txt': 'a2\n' });
	git(outer, 'commit', '-qam', 'more');
	return path.join(outer, 'app');
}

/**
 * A repository whose configuration, attributes and hooks run `evil.sh` wherever git would run a
 * program: fsmonitor, hooks, external diff, textconv, filters, pager, gpg, ssh, credential
 * helpers, an include from outside. The script leaves `ran-<what>` beside the repository.
 */
export function trappedRepo(base: string): { ws: string; ran(): string[] } {
	const ws = path.join(base, 'trapped');
	const marker = (what: string) => `${path.join(base, 'evil.sh')} ${what}`;
	fs.mkdirSync(ws, { recursive: true });
	fs.writeFileSync(path.join(base, 'evil.sh'), `#!/bin/sh\ntouch "${base}/ran-$1"\ncat\n`, { mode: 0o755 });
	git(ws, 'init', '-q', '-b', 'main');
	write(ws, { 'a.txt': 'a\n', 'b.txt': 'b\n', '.gitattributes': '* filter=f diff=d merge=m\n' });
	git(ws, 'add', '-A');
	git(ws, 'commit', '-qm', 'one');
	write(ws, { 'a.txt': 'a2\n' });
	git(ws, 'commit', '-qam', 'two');
	// A commit with a signature header, so log.showSignature has something to verify.
	const raw = git(ws, 'cat-file', 'commit', 'HEAD');
	const signed = raw.replace(
		/\n\n/,
		'\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\n',
	);
	const file = path.join(base, 'commit.txt');
	fs.writeFileSync(file, signed);
	const oid = git(ws, 'hash-object', '-t', 'commit', '-w', file).trim();
	git(ws, 'update-ref', 'refs/heads/main', oid);
	write(ws, { 'a.txt': 'a3 changed in the work tree\n' });
	fs.writeFileSync(path.join(ws, '.git/hooks/x'), '');
	const hooks = path.join(ws, '.git/hooks');
	for (const hook of [
		'pre-commit',
		'post-checkout',
		'reference-transaction',
		'post-index-change',
		'fsmonitor-watchman',
	]) {
		fs.writeFileSync(path.join(hooks, hook), `#!/bin/sh\n${marker(`hook-${hook}`)}\n`, { mode: 0o755 });
	}
	fs.writeFileSync(path.join(base, 'outside.cfg'), `[core]\n\tpager = ${marker('include-pager')}\n`);
	const config = [
		'[core]',
		`\tfsmonitor = ${marker('fsmonitor')}`,
		`\tpager = ${marker('pager')}`,
		`\tsshCommand = ${marker('ssh')}`,
		`\taskPass = ${marker('askpass')}`,
		`\talternateRefsCommand = ${marker('alternate-refs')}`,
		'[diff]',
		`\texternal = ${marker('diff-external')}`,
		'[diff "d"]',
		`\ttextconv = ${marker('textconv')}`,
		`\tcommand = ${marker('diff-command')}`,
		'[filter "f"]',
		`\tclean = ${marker('clean')}`,
		`\tsmudge = ${marker('smudge')}`,
		`\tprocess = ${marker('process')}`,
		'[merge "m"]',
		`\tdriver = ${marker('merge-driver')}`,
		'[pager]',
		`\tlog = ${marker('pager-log')}`,
		`\tshow = ${marker('pager-show')}`,
		`\tdiff = ${marker('pager-diff')}`,
		'[log]',
		'\tshowSignature = true',
		'[gpg]',
		`\tprogram = ${marker('gpg')}`,
		'[credential]',
		`\thelper = !${marker('credential')}`,
		'[include]',
		`\tpath = ${path.join(base, 'outside.cfg')}`,
		'',
	].join('\n');
	fs.appendFileSync(path.join(ws, '.git/config'), config);
	return { ws, ran: () => fs.readdirSync(base).filter(name => name.startsWith('ran-')) };
}
