// The toolset the generative bench offers: five tools with string, number and boolean
// arguments, every execution recorded, so "ran once, with these arguments" is a fact.

import * as fc from 'fast-check';
import * as z from 'zod';
import { defineTool, ok, type ToolDefinition, type ToolEffect } from '../../../src/core/tools/defineTool';
import type { Args } from './callEncodings';

export interface Execution {
	name: string;
	input: Record<string, unknown>;
}

interface GenToolSpec {
	name: string;
	description: string;
	effect: ToolEffect;
	input: z.ZodObject<z.ZodRawShape>;
	args: fc.Arbitrary<Args>;
}

const word = fc.stringMatching(/^[a-z]{2,9}$/);
const path = fc
	.tuple(
		word,
		fc.array(fc.stringMatching(/^[a-z0-9_]{1,8}$/), { maxLength: 2 }),
		word,
		fc.constantFrom('txt', 'md', 'ts', 'py', 'json'),
	)
	.map(([dir, subs, file, ext]) => [dir, ...subs, `${file}.${ext}`].join('/'));
const token = fc.oneof(
	{ weight: 6, arbitrary: word },
	fc.constantFrom(
		'{',
		'}',
		'(x)',
		'[1, 2]',
		'"quoted"',
		"it's",
		'a = b;',
		'=>',
		'#',
		'//',
		'<b>',
		'é',
		'ü',
		'中文',
		'✓',
		'\\d+',
		'&&',
	),
);
const line = fc.array(token, { minLength: 1, maxLength: 8 }).map(tokens => tokens.join(' '));
/** A file body: one to six lines, trimmed, with quotes, braces, unicode and a backslash now and then. */
const content = fc.array(line, { minLength: 1, maxLength: 6 }).map(lines => lines.join('\n'));
const command = fc.oneof(
	path.map(p => `cat ${p}`),
	fc.tuple(word, path).map(([w, p]) => `grep -rn "${w}" ${p.split('/')[0]}`),
	fc.constantFrom('npm test', 'ls -la', 'git status --short'),
);

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const defined = (args: Record<string, unknown>): Args =>
	Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)) as Args;

export const GEN_TOOLS: GenToolSpec[] = [
	{
		name: 'read_file',
		description: 'Read a text file.',
		effect: 'read',
		input: z.object({ path: z.string() }),
		args: fc.record({ path }),
	},
	{
		name: 'write_file',
		description: 'Create or overwrite a text file.',
		effect: 'write',
		input: z.object({ path: z.string(), content: z.string() }),
		args: fc.record({ path, content }),
	},
	{
		name: 'list_directory',
		description: 'List a folder.',
		effect: 'read',
		input: z.object({ path: z.string() }),
		args: fc.record({ path: word }),
	},
	{
		name: 'search_files',
		description: 'Search file contents.',
		effect: 'read',
		input: z.object({
			query: z.string(),
			max_results: z.number().int().optional(),
			case_sensitive: z.boolean().optional(),
		}),
		args: fc
			.record({
				query: fc.array(word, { minLength: 1, maxLength: 3 }).map(w => w.join(' ')),
				max_results: optional(fc.integer({ min: 1, max: 200 })),
				case_sensitive: optional(fc.boolean()),
			})
			.map(defined),
	},
	{
		name: 'run_command',
		description: 'Run a shell command.',
		effect: 'exec',
		input: z.object({ command: z.string(), timeout_seconds: z.number().optional() }),
		args: fc.record({ command, timeout_seconds: optional(fc.integer({ min: 1, max: 600 })) }).map(defined),
	},
];

export const GEN_TOOL_NAMES = GEN_TOOLS.map(tool => tool.name);

/** One intended call: a tool of the set and arguments its schema accepts. */
export const intendedCall = fc
	.constantFrom(...GEN_TOOLS)
	.chain(tool => tool.args.map(args => ({ tool: tool.name, args })));

/** The toolset, recording every execution into `log`. */
export function recordingTools(log: Execution[]): ToolDefinition<any>[] {
	return GEN_TOOLS.map(spec =>
		defineTool({
			name: spec.name,
			description: spec.description,
			input: spec.input,
			effect: spec.effect,
			describe: () => spec.name,
			async execute(input) {
				log.push({ name: spec.name, input: input as Record<string, unknown> });
				return ok(`${spec.name} done`);
			},
		}),
	);
}

/** A name no offered tool answers to, even ignoring case and separators. */
export const unofferedName = fc
	.tuple(word, fc.constantFrom('_', ''), word)
	.map(([a, sep, b]) => `${a}${sep}${b}`)
	.filter(name => {
		const key = (s: string) => s.toLowerCase().replace(/[_.\s-]/g, '');
		return !GEN_TOOL_NAMES.some(tool => key(tool) === key(name) || key(name).includes(key(tool)));
	});
