// The generative bench's grammar: a reply composed from independent parts — a call in one of
// many encodings, inside a wrapper drawn at random (tags, special tokens, brackets, fences, an
// orphan closing tag, none), placed in the content or the reasoning, before or after prose,
// cut into random chunks, on one of the three wires — and the negative set that must never run.

import * as fc from 'fast-check';
import type { Wire } from '../modelDouble';
import { encodeCall, encodingChoice, type Args, type EncodingChoice } from './callEncodings';
import { GEN_TOOL_NAMES, intendedCall, unofferedName } from './genTools';

export const WRAPPERS = [
	'none',
	'tag',
	'specialToken',
	'bracket',
	'fullWidth',
	'fence',
	'orphanClose',
	'orphanOpen',
] as const;
export const PLACEMENTS = ['content', 'afterProse', 'beforeProse', 'reasoning', 'think'] as const;
export const NEGATIVES = [
	'proseMention',
	'inlineMention',
	'fencedExample',
	'halfCall',
	'unoffered',
	'attributeMention',
] as const;
export type WrapperKind = (typeof WRAPPERS)[number];
export type Placement = (typeof PLACEMENTS)[number];
export type NegativeKind = (typeof NEGATIVES)[number];

export interface GenCase {
	/** What the reply is made of, for the per-part tables. */
	parts: { wrapper: WrapperKind; encoding: string; placement: Placement | NegativeKind; wire: Wire };
	/** The call that must run once; undefined for a negative case (nothing may run). */
	expected?: { tool: string; args: Args };
	prompt: string;
	text: string;
	reasoning: string;
	chunks: number;
	finishReason?: string;
}

const ident = fc.stringMatching(/^[a-z]{2,8}(_[a-z]{2,8}){0,2}$/).filter(t => !GEN_TOOL_NAMES.some(n => t.includes(n)));
const wire = fc.constantFrom<Wire>('openai', 'ollama', 'anthropic');

interface WrapperChoice {
	kind: WrapperKind;
	tag: string;
	fenceLang: string;
}

const wrapperChoice: fc.Arbitrary<WrapperChoice> = fc.record({
	kind: fc.constantFrom(...WRAPPERS),
	tag: fc.oneof(fc.constantFrom('tool_call', 'function_call', 'tool', 'call', 'tools'), ident),
	fenceLang: fc.oneof(fc.constantFrom('', 'json', 'tool_call', 'python', 'xml'), ident),
});

export function wrap(call: string, w: WrapperChoice): string {
	switch (w.kind) {
		case 'none':
			return call;
		case 'tag':
			return `<${w.tag}>\n${call}\n</${w.tag}>`;
		case 'specialToken':
			return `<|${w.tag}_begin|>${call}<|${w.tag}_end|>`;
		case 'bracket':
			return `[${w.tag.toUpperCase()}]${call}[/${w.tag.toUpperCase()}]`;
		case 'fullWidth':
			return `<｜${w.tag}▁begin｜>${call}<｜${w.tag}▁end｜>`;
		case 'fence':
			return `\`\`\`${w.fenceLang}\n${call}\n\`\`\``;
		case 'orphanClose':
			return `${call}\n</${w.tag}>`;
		case 'orphanOpen':
			return `<${w.tag}>\n${call}`;
	}
}

/** Words a model writes around its call: announcements, sometimes naming the tool, never an argument. */
const sentence = fc
	.tuple(
		fc.constantFrom('Let me', "I'll", 'Now I will', 'First, I need to', 'Next I', 'OK, I will', 'Sure, I will'),
		fc.constantFrom('check', 'look at', 'open', 'inspect', 'take care of', 'start with', 'handle'),
		fc.constantFrom('the file', 'this', 'the folder', 'it', 'that part', 'the request'),
		fc.option(
			fc.constantFrom(...GEN_TOOL_NAMES).map(n => ` with ${n}`),
			{ nil: '' },
		),
		fc.constantFrom('.', ':', '!', ' now.'),
	)
	.map(([a, b, c, d, e]) => `${a} ${b} ${c}${d}${e}`);
const prose = fc.array(sentence, { minLength: 1, maxLength: 3 }).map(s => s.join(' '));

/** A complete call of an offered tool, wrapped and placed: it must run exactly once. */
export const positiveCase: fc.Arbitrary<GenCase> = fc
	.record({
		call: intendedCall,
		encoding: encodingChoice,
		wrapper: wrapperChoice,
		placement: fc.constantFrom(...PLACEMENTS),
		before: prose,
		after: prose,
		chunks: fc.integer({ min: 1, max: 60 }),
		wire,
	})
	.map(r => {
		const call = wrap(encodeCall(r.call.tool, r.call.args, r.encoding).text, r.wrapper);
		const [text, reasoning] = place(call, r.placement, r.before, r.after);
		return {
			parts: { wrapper: r.wrapper.kind, encoding: r.encoding.name, placement: r.placement, wire: r.wire },
			expected: r.call,
			prompt: 'Please take care of the task.',
			text,
			reasoning,
			chunks: r.chunks,
		};
	});

function place(call: string, placement: Placement, before: string, after: string): [string, string] {
	switch (placement) {
		case 'content':
			return [call, ''];
		case 'afterProse':
			return [`${before}\n${call}`, ''];
		case 'beforeProse':
			return [`${call}\n${after}`, ''];
		case 'reasoning':
			return ['', `${before}\n${call}`];
		case 'think':
			return [`<think>${before}\n${call}</think>`, ''];
	}
}

export const negativeCase: fc.Arbitrary<GenCase> = fc.oneof(
	proseMention(),
	inlineMention(),
	fencedExample(),
	halfCall(),
	unoffered(),
	attributeMention(),
);

function negative(kind: NegativeKind, encoding: string, w: WrapperKind, prompt: string, text: string) {
	return fc.record({ chunks: fc.integer({ min: 1, max: 40 }), wire }).map((r): GenCase => ({
		parts: { wrapper: w, encoding, placement: kind, wire: r.wire },
		prompt,
		text,
		reasoning: '',
		chunks: r.chunks,
	}));
}

/** The tools named in prose with what they would act on, and no call. */
function proseMention(): fc.Arbitrary<GenCase> {
	return fc.tuple(intendedCall, fc.integer({ min: 0, max: 3 })).chain(([{ tool, args }, form]) => {
		const target = String(Object.values(args)[0]);
		const text = [
			`You can use ${tool} to work on ${target} if you want.`,
			`The ${tool} tool needs ${Object.keys(args).join(' and ')}; I did not call it.`,
			`I could run ${tool} with ${target}, but the answer is already in the file you pasted.`,
			`Use \`${tool}\` for that: it takes ${Object.keys(args)[0]}.`,
		][form];
		return negative('proseMention', 'prose', 'none', 'What tools do you have?', text);
	});
}

/** A call written inside a sentence, as a report of the past or a suggestion: prose on both sides. */
function inlineMention(): fc.Arbitrary<GenCase> {
	return fc.tuple(intendedCall, fc.boolean()).chain(([{ tool, args }, ticks]) => {
		const call = encodeCall(tool, args, { ...PLAIN, name: 'python' }).text.replace(/\n/g, ' ');
		const shown = ticks ? `\`${call}\`` : call;
		return negative(
			'inlineMention',
			'python',
			'none',
			'What happened?',
			`Earlier ${shown} returned an error, so I stopped there.`,
		);
	});
}

/**
 * A tool named as a setting's value in a sentence (`name="read_file"`, `tool=read_file`), with
 * or without what it would act on: an attribute is not a call unless arguments follow it and
 * nothing but the call is on its line.
 */
function attributeMention(): fc.Arbitrary<GenCase> {
	return fc
		.tuple(
			intendedCall,
			fc.constantFrom('name', 'tool', 'function', 'tool_name', 'handler'),
			fc.constantFrom('"', "'", ''),
			fc.integer({ min: 0, max: 4 }),
		)
		.chain(([{ tool, args }, key, q, form]) => {
			const attribute = `${key}=${q}${tool}${q}`;
			const json = JSON.stringify(args);
			const text = [
				`The config sets ${attribute} for this step.`,
				`Earlier ${attribute} ${json} failed, so I stopped there.`,
				`I changed ${attribute} in the plugin manifest; nothing else.`,
				`Set ${attribute} and pass ${json} when you run it yourself.`,
				`In the log, call ${attribute} ${json} was refused by the server.`,
			][form];
			return negative('attributeMention', 'nameAttribute', 'none', 'What did you change?', text);
		});
}

/** A JSON example the user asked for, fenced and explained. */
function fencedExample(): fc.Arbitrary<GenCase> {
	return fc.tuple(intendedCall, encodingChoice, fc.boolean()).chain(([{ tool, args }, enc, explain]) => {
		const json = encodeCall(tool, args, { ...enc, name: 'json' }).text;
		const text = `Here is an example of such a call:\n\`\`\`json\n${json}\n\`\`\`${explain ? `\nIt would ${tool.replace('_', ' ')} with those arguments.` : ''}`;
		return negative(
			'fencedExample',
			'json',
			'fence',
			`Show me an example of the JSON for a ${tool} tool call.`,
			text,
		);
	});
}

/** A call cut off inside its arguments (a quote, brace, parenthesis or value not yet closed). */
function halfCall(): fc.Arbitrary<GenCase> {
	return fc
		.record({
			call: intendedCall,
			encoding: encodingChoice,
			wrapper: wrapperChoice,
			at: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
			length: fc.boolean(),
			chunks: fc.integer({ min: 1, max: 40 }),
			wire,
		})
		.filter(r => encodeCall(r.call.tool, r.call.args, r.encoding).delimited.some(([s, e]) => e - s > 2))
		.map((r): GenCase => {
			const enc = encodeCall(r.call.tool, r.call.args, r.encoding);
			const [s, e] = enc.delimited.filter(([a, b]) => b - a > 2).at(-1)!;
			const cut = s + 1 + Math.floor(r.at * (e - s - 2));
			const opened = wrap(
				enc.text,
				r.wrapper.kind === 'orphanClose' ? { ...r.wrapper, kind: 'none' } : r.wrapper,
			);
			const text = opened.slice(0, opened.indexOf(enc.text) + cut);
			return {
				parts: { wrapper: r.wrapper.kind, encoding: r.encoding.name, placement: 'halfCall', wire: r.wire },
				prompt: 'Please take care of the task.',
				text,
				reasoning: '',
				chunks: r.chunks,
				finishReason: r.length ? 'length' : undefined,
			};
		});
}

/** A complete, well-formed call to a tool that is not offered. */
function unoffered(): fc.Arbitrary<GenCase> {
	return fc
		.record({
			call: intendedCall,
			name: unofferedName,
			encoding: encodingChoice,
			wrapper: wrapperChoice,
			chunks: fc.integer({ min: 1, max: 40 }),
			wire,
		})
		.map((r): GenCase => ({
			parts: { wrapper: r.wrapper.kind, encoding: r.encoding.name, placement: 'unoffered', wire: r.wire },
			prompt: 'Please take care of the task.',
			text: wrap(encodeCall(r.name, r.call.args, r.encoding).text, r.wrapper),
			reasoning: '',
			chunks: r.chunks,
		}));
}

const PLAIN: EncodingChoice = {
	name: 'json',
	nameKey: 'name',
	argsKey: 'arguments',
	pretty: false,
	extraFields: false,
	quote: '"',
	separator: ' ',
	connector: ' ',
	keyTag: 'arg_key',
	valueTag: 'arg_value',
};

/** `count` cases of each set for one seed: the same seed always gives the same replies. */
export function sampleCases(
	seed: number,
	positives: number,
	negatives: number,
): { positive: GenCase[]; negative: GenCase[] } {
	return {
		positive: fc.sample(positiveCase, { seed, numRuns: positives }),
		negative: fc.sample(negativeCase, { seed: seed + 1, numRuns: negatives }),
	};
}
