// How a model may write one call's name and arguments as text, for the generative bench: every
// encoding renders any call of the toolset, and reports where its arguments sit so a negative
// case can cut the call inside them. Keys, labels and connectors are drawn at random, so no
// parser can be tuned to a list of them.

import * as fc from 'fast-check';

export type ArgValue = string | number | boolean;
export type Args = Record<string, ArgValue>;

export interface Encoded {
	text: string;
	/** Character ranges that must be closed for the call to be complete (quotes, braces, values before their closing tag). */
	delimited: Array<[number, number]>;
}

export const ENCODINGS = [
	'json',
	'jsonNested',
	'jsonStringArgs',
	'nameAsKey',
	'python',
	'keyValue',
	'xmlParameter',
	'xmlChildren',
	'keyValueTags',
	'attributes',
	'nameThenJson',
	'nameAttribute',
] as const;
export type EncodingName = (typeof ENCODINGS)[number];

export interface EncodingChoice {
	name: EncodingName;
	/** Free choices inside the encoding: keys, labels, connectors, quoting, layout. */
	nameKey: string;
	argsKey: string;
	pretty: boolean;
	extraFields: boolean;
	quote: '"' | "'";
	separator: ' ' | ', ' | '\n';
	connector: string;
	keyTag: string;
	valueTag: string;
}

const ident = fc.stringMatching(/^[a-z]{2,8}(_[a-z]{2,8}){0,2}$/);

/** Names a model might give the field holding the tool's name or its arguments: common ones and invented ones. */
const nameKeys = fc.oneof(fc.constantFrom('name', 'tool', 'tool_name', 'function', 'action', 'toolName'), ident);
const argsKeys = fc.oneof(fc.constantFrom('arguments', 'parameters', 'input', 'args', 'params', 'action_input'), ident);

/** What may sit between a name and its JSON arguments: spaces, punctuation, a token, a label on the next line. */
const connectors = fc.oneof(
	fc.constantFrom(' ', '\n', ': ', ':\n', ' => '),
	ident.map(label => `\n${label[0].toUpperCase()}${label.slice(1).replace(/_/g, ' ')}: `),
	ident.map(token => `[${token.toUpperCase()}]`),
	ident.map(token => `<|${token}|>`),
	ident.map(token => `</${token}>\n<${token}_args>`),
);

export const encodingChoice: fc.Arbitrary<EncodingChoice> = fc.record({
	name: fc.constantFrom(...ENCODINGS),
	nameKey: nameKeys,
	argsKey: argsKeys,
	pretty: fc.boolean(),
	extraFields: fc.boolean(),
	quote: fc.constantFrom('"' as const, "'" as const),
	separator: fc.constantFrom(' ' as const, ', ' as const, '\n' as const),
	connector: connectors,
	keyTag: fc.oneof(fc.constantFrom('arg_key', 'key'), ident),
	valueTag: fc.oneof(fc.constantFrom('arg_value', 'value'), ident),
});

/** Renders the call; keys chosen at random that collide with the call's own names fall back to a plain one. */
export function encodeCall(tool: string, args: Args, c: EncodingChoice): Encoded {
	const taken = new Set([tool, ...Object.keys(args)]);
	const nameKey = taken.has(c.nameKey) ? 'name' : c.nameKey;
	const argsKey = taken.has(c.argsKey) || c.argsKey === nameKey ? 'arguments' : c.argsKey;
	const json = (value: unknown) => JSON.stringify(value, null, c.pretty ? 2 : undefined);
	switch (c.name) {
		case 'json': {
			const fields: Record<string, unknown> = c.extraFields ? { type: 'function' } : {};
			fields[nameKey] = tool;
			fields[argsKey] = args;
			return whole(json(fields));
		}
		case 'jsonNested':
			return whole(
				json({
					...(c.extraFields ? { id: 'call_1', type: 'function' } : {}),
					function: { name: tool, arguments: args },
				}),
			);
		case 'jsonStringArgs':
			return whole(json({ [nameKey]: tool, [argsKey]: JSON.stringify(args) }));
		case 'nameAsKey':
			return whole(json({ [tool]: args }));
		case 'python':
			return joined(
				`${tool}(`,
				Object.entries(args).map(([k, v]) => `${k}=${pyLiteral(v, c.quote)}`),
				', ',
				')',
			);
		case 'keyValue':
			return joined(
				`${tool} `,
				Object.entries(args).map(([k, v]) => `${k}=${kvLiteral(v, c.quote)}`),
				c.separator,
				'',
			);
		case 'xmlParameter':
			return tagged(`<function=${tool}>\n`, args, k => [`<parameter=${k}>\n`, `\n</parameter>\n`], '</function>');
		case 'xmlChildren':
			return tagged(`<${tool}>\n`, args, k => [`<${k}>`, `</${k}>\n`], `</${tool}>`);
		case 'keyValueTags':
			return tagged(
				`${tool}\n`,
				args,
				k => [`<${c.keyTag}>${k}</${c.keyTag}>\n<${c.valueTag}>`, `</${c.valueTag}>\n`],
				'',
			);
		case 'attributes':
			return attributes(tool, args, c);
		case 'nameAttribute':
			return nameAttribute(tool, args, nameKey, c);
		case 'nameThenJson': {
			const body = json(args);
			const head = `${tool}${c.connector}`;
			return { text: head + body, delimited: [[head.length, head.length + body.length]] };
		}
	}
}

function whole(text: string): Encoded {
	return { text, delimited: [[0, text.length]] };
}

function joined(head: string, parts: string[], separator: string, tail: string): Encoded {
	const body = parts.join(separator);
	const text = head + body + tail;
	// A Python call is open until its parenthesis closes; key=value pairs only inside their quotes.
	const delimited: Array<[number, number]> = tail
		? [[head.length - 1, text.length]]
		: quotedRanges(text, head.length);
	return { text, delimited };
}

function tagged(head: string, args: Args, tags: (key: string) => [string, string], tail: string): Encoded {
	let text = head;
	const delimited: Array<[number, number]> = [];
	for (const [key, value] of Object.entries(args)) {
		const [open, close] = tags(key);
		text += open;
		const start = text.length;
		text += String(value);
		// The value is open until its closing tag is complete.
		delimited.push([start, text.length + close.trimEnd().length]);
		text += close;
	}
	return { text: text + tail, delimited };
}

function attributes(tool: string, args: Args, c: EncodingChoice): Encoded {
	const tag = c.keyTag === 'arg_key' ? 'tool_call' : c.keyTag;
	const flat = Object.values(args).every(v => typeof v !== 'string' || !/["\n]/.test(v));
	if (c.extraFields && flat) {
		const attrs = Object.entries(args)
			.map(([k, v]) => ` ${k}="${v}"`)
			.join('');
		const text = `<${tag} name="${tool}"${attrs} />`;
		return { text, delimited: [[tag.length + 1, text.length]] };
	}
	const head = `<${tag} name="${tool}">`;
	const body = JSON.stringify(args);
	return { text: `${head}${body}</${tag}>`, delimited: [[head.length, head.length + body.length]] };
}

/**
 * The name as an attribute value and the arguments after a separator token, as chat templates
 * no parser names write it: `call name="read_file"<|sep|>{…}`, `[INVOKE tool=read_file] {…}`.
 * The keyword, key, quoting and separator are drawn at random.
 */
function nameAttribute(tool: string, args: Args, nameKey: string, c: EncodingChoice): Encoded {
	const keyword = c.keyTag === 'arg_key' ? 'call' : c.keyTag;
	const quote = c.pretty ? '' : c.quote;
	const attribute = `${nameKey}=${quote}${tool}${quote}`;
	const head = c.extraFields ? `[${keyword.toUpperCase()} ${attribute}]` : `${keyword} ${attribute}`;
	const lead = head + c.connector;
	const body = JSON.stringify(args);
	return { text: lead + body, delimited: [[lead.length, lead.length + body.length]] };
}

/** Spans of quoted values after `from`, each open until its closing quote. */
function quotedRanges(text: string, from: number): Array<[number, number]> {
	const out: Array<[number, number]> = [];
	for (let i = from; i < text.length; i++) {
		const q = text[i];
		if (q !== '"' && q !== "'") continue;
		let j = i + 1;
		while (j < text.length && text[j] !== q) j += text[j] === '\\' ? 2 : 1;
		out.push([i, j + 1]);
		i = j;
	}
	return out;
}

function pyLiteral(value: ArgValue, quote: '"' | "'"): string {
	if (typeof value === 'boolean') return value ? 'True' : 'False';
	if (typeof value === 'number') return String(value);
	return quoteString(value, quote);
}

function kvLiteral(value: ArgValue, quote: '"' | "'"): string {
	if (typeof value !== 'string') return String(value);
	return /^[\w./-]+$/.test(value) ? value : quoteString(value, quote);
}

/** A string literal as Python or a shell-minded model writes it: backslash escapes inside the quotes. */
function quoteString(value: string, quote: '"' | "'"): string {
	const body = value
		.replace(/\\/g, '\\\\')
		.replace(new RegExp(quote, 'g'), `\\${quote}`)
		.replace(/\n/g, '\\n')
		.replace(/\t/g, '\\t');
	return quote + body + quote;
}
