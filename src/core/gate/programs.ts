import * as fs from 'fs';
import * as path from 'path';

export class ProgramRefused extends Error {}

/**
 * The program a process start will run, found the way the system finds it (execvp: a name with
 * a slash from the working folder, otherwise the first executable file along PATH, whose
 * relative entries also start at the working folder): the path found, which is what is started
 * (a multi-call program reads its name), and the real file behind it, for what the user is
 * shown and what a consent covers. Throws ProgramRefused when there is none.
 */
export function resolveExecutable(command: string, cwd: string, searchPath: string): { found: string; real: string } {
	const candidates =
		command.includes('/') || command.includes(path.sep)
			? [path.resolve(cwd, command)]
			: searchPath.split(path.delimiter).map(dir => path.resolve(cwd, dir || '.', command));
	for (const candidate of candidates) {
		try {
			const stat = fs.statSync(candidate);
			fs.accessSync(candidate, fs.constants.X_OK);
			if (stat.isFile()) {
				return { found: candidate, real: fs.realpathSync(candidate) };
			}
		} catch {
			// Not this one: the next PATH entry.
		}
	}
	throw new ProgramRefused(`the program "${command}" was not found (PATH: ${searchPath || 'empty'})`);
}
