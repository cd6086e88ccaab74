import * as fs from 'fs';
import * as path from 'path';

export class ProgramRefused extends Error {}

/**
 * The program a start will actually run: `command` found on PATH (or, when it names a path,
 * against `cwd`), as an absolute path handed to the spawner, so no later lookup can pick
 * another file; `cwd` must be a folder that exists. Throws ProgramRefused with what to fix.
 */
export function resolveProgram(command: string, options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
	const { cwd } = options;
	if (cwd !== undefined && !isFolder(cwd)) {
		throw new ProgramRefused(`its folder (cwd) ${cwd} does not exist or is not a folder.`);
	}
	if (command.trim() === '') {
		throw new ProgramRefused('it names no program to run.');
	}
	const windows = process.platform === 'win32';
	if (path.isAbsolute(command) || /[\\/]/.test(command)) {
		const candidate = path.resolve(cwd ?? process.cwd(), command);
		const found = executable(candidate, windows);
		if (!found) {
			throw new ProgramRefused(`${candidate} is not an executable file.`);
		}
		return found;
	}
	const env = options.env ?? process.env;
	const entries = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean);
	for (const dir of entries) {
		// A relative PATH entry would depend on the folder the server starts in: skipped.
		if (!path.isAbsolute(dir)) {
			continue;
		}
		const found = executable(path.join(dir, command), windows, env.PATHEXT);
		if (found) {
			return found;
		}
	}
	throw new ProgramRefused(`"${command}" was not found on PATH.`);
}

function executable(file: string, windows: boolean, pathext = '.COM;.EXE;.BAT;.CMD'): string | undefined {
	const candidates =
		windows && !path.extname(file) ? pathext.split(';').map(ext => file + ext.toLowerCase()) : [file];
	for (const candidate of [file, ...candidates]) {
		try {
			if (fs.statSync(candidate).isFile()) {
				fs.accessSync(candidate, windows ? fs.constants.F_OK : fs.constants.X_OK);
				return candidate;
			}
		} catch {
			// not here
		}
	}
	return undefined;
}

function isFolder(dir: string): boolean {
	try {
		return fs.statSync(dir).isDirectory();
	} catch {
		return false;
	}
}
