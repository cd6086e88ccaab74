import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Gate } from '../../core/gate/gate';
import type { OutputStore } from '../../core/tools/outputStore';
import { InMemoryOutputStore } from '../../core/tools/outputStore';
import { bundledRgPath } from '../../core/tools/search/ripgrep';
import type { DiagnosticEntry, DiagnosticsSource, ToolDeps } from '../../core/tools/toolDeps';
import { readPathPolicy } from '../settings/permissionsConfig';
import { relativeOfUri, uriOfRelative } from './workspaceFolderNames';

/**
 * VS Code's own ripgrep first, then the @vscode/ripgrep copy if bundled. Its place moved
 * between versions: `@vscode/ripgrep/bin` before 1.18, the platform package
 * (`@vscode/ripgrep-linux-x64/bin`) since; packaged builds keep it in node_modules.asar.unpacked.
 */
export function findRipgrep(): string | undefined {
	const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
	const candidates: string[] = [];
	for (const modules of ['node_modules', 'node_modules.asar.unpacked']) {
		const scoped = path.join(vscode.env.appRoot, modules, '@vscode');
		const packages = fs.existsSync(scoped)
			? fs.readdirSync(scoped).filter(name => name === 'ripgrep' || name.startsWith('ripgrep-'))
			: [];
		// VS Code 1.13x ships @vscode/ripgrep-universal with one folder per platform: bin/linux-x64/rg.
		candidates.push(
			...packages.flatMap(name => [
				path.join(scoped, name, 'bin', exe),
				path.join(scoped, name, 'bin', `${process.platform}-${process.arch}`, exe),
			]),
			path.join(vscode.env.appRoot, modules, 'vscode-ripgrep', 'bin', exe),
		);
	}
	return candidates.find(candidate => fs.existsSync(candidate)) ?? bundledRgPath();
}

const SEVERITY: Record<vscode.DiagnosticSeverity, DiagnosticEntry['severity']> = {
	[vscode.DiagnosticSeverity.Error]: 'error',
	[vscode.DiagnosticSeverity.Warning]: 'warning',
	[vscode.DiagnosticSeverity.Information]: 'info',
	[vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** The Problems panel as data: only files inside the workspace, errors first. */
export const vscodeDiagnostics: DiagnosticsSource = {
	get(relative) {
		let pairs: Array<[vscode.Uri, readonly vscode.Diagnostic[]]>;
		if (relative !== undefined) {
			// Multi-root: "api/src/x.ts" is in the api folder, as the tools name it.
			const uri = uriOfRelative(relative);
			pairs = uri ? [[uri, vscode.languages.getDiagnostics(uri)]] : [];
		} else {
			pairs = vscode.languages.getDiagnostics();
		}
		const entries: DiagnosticEntry[] = [];
		for (const [uri, diagnostics] of pairs) {
			const shown = relativeOfUri(uri);
			if (shown === undefined) {
				continue;
			}
			for (const d of diagnostics) {
				entries.push({
					path: shown,
					line: d.range.start.line + 1,
					column: d.range.start.character + 1,
					severity: SEVERITY[d.severity],
					message: d.message,
					source: d.source,
					code:
						typeof d.code === 'object'
							? String(d.code.value)
							: d.code !== undefined
								? String(d.code)
								: undefined,
				});
			}
		}
		const order = { error: 0, warning: 1, info: 2, hint: 3 };
		return entries.sort(
			(a, b) => order[a.severity] - order[b.severity] || a.path.localeCompare(b.path) || a.line - b.line,
		);
	},
};

/** files.exclude and search.exclude entries that are switched on, as globs for find_path and grep. */
function excludes(): string[] {
	const globs: string[] = [];
	for (const key of ['files.exclude', 'search.exclude']) {
		const value = vscode.workspace.getConfiguration().get<Record<string, boolean | { when: string }>>(key, {});
		globs.push(
			...Object.entries(value)
				.filter(([, on]) => on === true)
				.map(([glob]) => glob),
		);
	}
	return [...new Set(globs)];
}

export function hostToolDeps(
	outputs: OutputStore = new InMemoryOutputStore(),
	toolSystem?: Pick<ToolDeps, 'toolSystem' | 'resultCache'>,
	gate?: Gate,
): ToolDeps {
	// Looked for when grep first runs: the search walks VS Code's install folder.
	let rg: { path: string | undefined } | undefined;
	return {
		pathPolicy: readPathPolicy,
		gate,
		rgPath: () => (rg ??= { path: findRipgrep() }).path,
		excludes,
		diagnostics: vscodeDiagnostics,
		network: {},
		outputs,
		...toolSystem,
	};
}
