/** create_directory, delete_path, move_path, copy_path: every path through the guard, both ends of a move/copy. */
import * as z from 'zod';
import { defineTool, fail, ok, type Preparation, type ToolDefinition } from '../defineTool';
import { fileDiff } from './fileDiff';
import type { ResolvedPath } from '../../gate/paths/paths';
import { displayPath, PathRefused } from '../../gate/paths/paths';
import { checkFolderEntries } from '../../gate/paths/folderEntries';
import { gateOf, guardFor, type ToolDeps } from '../toolDeps';

function protectedOf(...paths: ResolvedPath[]): string[] {
	return paths.filter(p => p.protectedReason).map(p => `${p.path}: ${p.protectedReason}`);
}

export function createPathTools(deps: ToolDeps): ToolDefinition<any>[] {
	const createDirectory = defineTool({
		name: 'create_directory',
		description: 'Create a folder (and missing parents) in the workspace.',
		input: z.object({ path: z.string() }),
		effect: 'write',
		subjects: input => [{ kind: 'path', values: [input.path] }],
		describe: input => `Create folder ${input.path}`,
		async prepare(input, context): Promise<Preparation> {
			const target = await guardFor(deps, context).resolve(input.path, 'write');
			return { protectedReasons: protectedOf(target), canonicalPaths: [target.canonical], data: target };
		},
		async execute(input, context) {
			const guard = guardFor(deps, context);
			const target = await guard.confirm(
				(context.prepared?.data as ResolvedPath | undefined) ?? (await guard.resolve(input.path, 'write')),
				'write',
			);
			const stat = await context.workspace.stat(target.path);
			if (stat) {
				return stat.type === 'directory'
					? ok(`${displayPath(target.path)} already exists.`)
					: fail(`${displayPath(target.path)} exists and is a file.`);
			}
			await context.workspace.createDirectory(target.path);
			return ok(`Created ${displayPath(target.path)}/.`);
		},
	});

	const deletePath = defineTool({
		name: 'delete_path',
		description:
			'Delete a file, or a folder with recursive: true. Symlinks are removed, never followed. The workspace root cannot be deleted.',
		input: z.object({ path: z.string(), recursive: z.boolean().optional() }),
		effect: 'write',
		subjects: input => [{ kind: 'path', values: [input.path] }],
		describe: input => `Delete ${input.path}${input.recursive ? ' (recursively)' : ''}`,
		async prepare(input, context): Promise<Preparation> {
			const target = await guardFor(deps, context).resolve(input.path, 'delete');
			const stat = await context.workspace.stat(target.path);
			let diffs;
			if (stat?.type === 'file' && stat.size < 256 * 1024) {
				diffs = [
					fileDiff(
						target.path,
						Buffer.from(await context.workspace.readFile(target.path)).toString('utf8'),
						undefined,
					),
				];
			}
			const inside = await checkFolderEntries(
				context.workspace,
				gateOf(deps).policy,
				target.path,
				undefined,
				'delete',
			);
			return {
				protectedReasons: [...protectedOf(target), ...inside],
				canonicalPaths: [target.canonical],
				data: target,
				diffs,
			};
		},
		async execute(input, context) {
			const guard = guardFor(deps, context);
			const target = await guard.confirm(
				(context.prepared?.data as ResolvedPath | undefined) ?? (await guard.resolve(input.path, 'delete')),
				'delete',
			);
			const stat = await context.workspace.stat(target.path);
			if (!stat) {
				return fail(`Nothing to delete at ${displayPath(target.path)}.`);
			}
			if (stat.type === 'directory' && !input.recursive) {
				const entries = await context.workspace.readDirectory(target.path);
				if (entries.length > 0) {
					return fail(
						`${displayPath(target.path)} is a folder with ${entries.length} entries. Call again with recursive: true to delete it and everything in it.`,
					);
				}
			}
			await context.workspace.delete(target.path, {
				recursive: input.recursive === true || stat.type === 'directory',
			});
			return ok(`Deleted ${displayPath(target.path)}.`);
		},
	});

	const transfer = (name: 'move_path' | 'copy_path', verb: string) => {
		const tool: ToolDefinition<{ from: string; to: string; overwrite?: boolean }> = defineTool({
			name,
			description: `${verb} a file or folder inside the workspace. Fails if the destination exists unless overwrite is true.`,
			input: z.object({ from: z.string(), to: z.string(), overwrite: z.boolean().optional() }),
			effect: 'write',
			subjects: input => [{ kind: 'path', values: [input.from, input.to] }],
			describe: input => `${verb} ${input.from} → ${input.to}`,
			async prepare(input, context): Promise<Preparation> {
				const guard = guardFor(deps, context);
				// Moving or copying reads the source (a renamed .env is still a secret), and a move may not take the root.
				const from = await guard.resolve(input.from, 'read');
				if (name === 'move_path' && from.canonical === '') {
					throw new PathRefused('Moving the workspace root is not allowed.');
				}
				const to = await guard.resolve(input.to, 'write');
				const inside = await checkFolderEntries(
					context.workspace,
					gateOf(deps).policy,
					from.path,
					to.path,
					name === 'move_path' ? 'move' : 'copy',
				);
				return {
					protectedReasons: [...protectedOf(from, to), ...inside],
					canonicalPaths: [from.canonical, to.canonical],
					data: { from, to },
				};
			},
			async execute(input, context) {
				const approved =
					(context.prepared?.data as { from: ResolvedPath; to: ResolvedPath } | undefined) ??
					((await tool.prepare!(input, context)).data as { from: ResolvedPath; to: ResolvedPath });
				const guard = guardFor(deps, context);
				const data = {
					from: await guard.confirm(approved.from, 'read'),
					to: await guard.confirm(approved.to, 'write'),
				};
				// The folder may have gained entries while the card waited: check them again.
				await checkFolderEntries(
					context.workspace,
					gateOf(deps).policy,
					data.from.path,
					data.to.path,
					name === 'move_path' ? 'move' : 'copy',
				);
				if (!(await context.workspace.stat(data.from.path))) {
					return fail(`Nothing at ${displayPath(data.from.path)}.`);
				}
				if (!input.overwrite && (await context.workspace.stat(data.to.path))) {
					return fail(
						`${displayPath(data.to.path)} already exists. Pick another destination or set overwrite: true.`,
					);
				}
				if (
					data.to.canonical === data.from.canonical ||
					data.to.canonical.startsWith(`${data.from.canonical}/`)
				) {
					return fail(`Cannot ${verb.toLowerCase()} ${displayPath(data.from.path)} into itself.`);
				}
				const options = { overwrite: input.overwrite === true };
				await (name === 'move_path'
					? context.workspace.rename(data.from.path, data.to.path, options)
					: context.workspace.copy(data.from.path, data.to.path, options));
				return ok(
					`${name === 'move_path' ? 'Moved' : 'Copied'} ${displayPath(data.from.path)} → ${displayPath(data.to.path)}.`,
				);
			},
		});
		return tool;
	};

	return [createDirectory, deletePath, transfer('move_path', 'Move'), transfer('copy_path', 'Copy')];
}
