import { splitNul } from '../util/splitNul';
import type { ShadowGit } from './shadowGit';

/** Beside the repository: the fingerprint of the rules it was last purged for. */
const MARKER = 'keel-kept-out';

/**
 * Takes out of the shadow repository every file Keel's stores must not keep (an older version
 * copied secrets a later one refuses, or the user's deny list grew): from the index, from each
 * checkpoint commit (rewritten without them), and then from the object database itself, so the
 * bytes are gone, not just unreferenced. Runs when `fingerprint` (what decides "kept out")
 * differs from the one the repository was last purged for. Returns old commit → new commit,
 * for the checkpoint list beside the repository.
 */
export async function purgeKeptOut(
	git: ShadowGit,
	keptOut: (file: string) => boolean,
	fingerprint: string,
	fresh = false,
): Promise<Map<string, string>> {
	const remapped = new Map<string, string>();
	if (git.readNote(MARKER) === fingerprint) {
		return remapped;
	}
	if (fresh) {
		// A repository created just now holds nothing to purge.
		git.writeNote(MARKER, fingerprint);
		return remapped;
	}
	const cached = splitNul(await git.run(['ls-files', '-z', '--cached'])).filter(keptOut);
	if (cached.length > 0) {
		await git.run(
			['rm', '--cached', '-q', '-f', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'],
			cached.join('\0'),
		);
	}
	const refs = (await git.run(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/keel/']))
		.split('\n')
		.filter(Boolean)
		.map(line => [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)] as const);
	for (const [commit, ref] of refs) {
		let next = remapped.get(commit);
		if (next === undefined) {
			const denied = splitNul(
				await git.run(['ls-tree', '-r', '-z', '--name-only', '--full-tree', commit]),
			).filter(keptOut);
			if (denied.length === 0) {
				continue;
			}
			next = await rewriteWithout(git, commit, denied);
			remapped.set(commit, next);
		}
		await git.run(['update-ref', ref, next]);
	}
	// Unreferenced is not gone: expire the reflogs and prune every unreachable object now.
	await git.run(['reflog', 'expire', '--expire=now', '--all']);
	await git.run([
		'-c',
		'gc.reflogExpire=now',
		'-c',
		'gc.reflogExpireUnreachable=now',
		'gc',
		'--prune=now',
		'--quiet',
	]);
	git.writeNote(MARKER, fingerprint);
	return remapped;
}

/** The same commit without `files`, built in an index of its own so the shadow index is not touched. */
async function rewriteWithout(git: ShadowGit, commit: string, files: string[]): Promise<string> {
	const index = `keel-purge-index-${process.pid}`;
	const env = { GIT_INDEX_FILE: git.notePath(index) };
	try {
		await git.run(['read-tree', commit], undefined, true, env);
		await git.run(
			['rm', '--cached', '-q', '-f', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'],
			files.join('\0'),
			true,
			env,
		);
		const tree = (await git.run(['write-tree'], undefined, true, env)).trim();
		const message = await git.run(['show', '-s', '--format=%B', commit]);
		return (await git.run(['commit-tree', tree, '-m', message.trim() || 'checkpoint'])).trim();
	} finally {
		git.removeNote(index);
	}
}
