// Tool sets that llama.cpp users report as breaking the server's tool-call grammar: many tools
// with realistic schemas (llama.cpp#25895, a ceiling near 58 tools / 100 KB of schema), a large
// `maxLength` that becomes `char{0,N}` (#26596, #27859, lemonade#2691), a `pattern` with a
// lookahead (zod's email regex, email-mcp#58), and `format`. Each probe is one request; the
// capture records what this revision answers to each.

export interface OpenAITool {
	type: 'function';
	function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface GrammarProbe {
	name: string;
	/** The public report the probe reproduces. */
	reference: string;
	tools: OpenAITool[];
}

const tool = (name: string, description: string, properties: Record<string, unknown>, required: string[] = []) => ({
	type: 'function' as const,
	function: { name, description, parameters: { type: 'object', properties, required } },
});

/** One MCP-style tool of about 1.6 KB of schema: strings, an enum, bounded integers, a nested object, an array. */
export function mcpStyleTool(i: number): OpenAITool {
	const topics = ['issue', 'pull_request', 'branch', 'release', 'workflow', 'deployment', 'secret', 'label'];
	const topic = topics[i % topics.length];
	return tool(
		`mcp_${topic}_${i}`,
		`Operate on a ${topic.replace('_', ' ')} of a GitHub repository through the MCP server; returns the JSON the API returns.`,
		{
			owner: { type: 'string', description: 'Repository owner (user or organisation login).' },
			repo: { type: 'string', description: 'Repository name without the owner.' },
			state: { type: 'string', enum: ['open', 'closed', 'all'], description: 'Filter by state.' },
			per_page: { type: 'integer', minimum: 1, maximum: 100, description: 'Results per page.' },
			page: { type: 'integer', minimum: 1, description: 'Page number of the results.' },
			labels: { type: 'array', items: { type: 'string' }, description: 'Labels to filter by.' },
			sort: {
				type: 'object',
				description: 'How to sort the results.',
				properties: {
					field: { type: 'string', enum: ['created', 'updated', 'comments'] },
					direction: { type: 'string', enum: ['asc', 'desc'] },
				},
				required: ['field'],
			},
			query: { type: 'string', description: `Free-text search over the ${topic} title and body.` },
		},
		['owner', 'repo'],
	);
}

const readFile = tool('read_file', 'Read a file of the workspace.', { path: { type: 'string' } }, ['path']);

export function grammarProbes(): GrammarProbe[] {
	const many = (n: number): GrammarProbe => ({
		name: `${n} MCP-style tools`,
		reference: 'https://github.com/ggml-org/llama.cpp/issues/25895',
		tools: Array.from({ length: n }, (_, i) => mcpStyleTool(i)),
	});
	const maxLength = (n: number): GrammarProbe => ({
		name: `string maxLength ${n}`,
		reference: 'https://github.com/ggml-org/llama.cpp/issues/26596',
		tools: [readFile, tool('write_note', 'Write a note.', { text: { type: 'string', maxLength: n } }, ['text'])],
	});
	return [
		many(20),
		many(60),
		many(120),
		many(250),
		maxLength(100),
		maxLength(2000),
		maxLength(65536),
		maxLength(524288),
		{
			// The grammar parser refuses a repetition whose minimum is above 2,000 (llama-grammar.cpp,
			// MAX_REPETITION_THRESHOLD): the one schema keyword this revision cannot compile.
			name: 'string minLength 2001',
			reference: 'https://github.com/ggml-org/llama.cpp/issues/26596',
			tools: [
				readFile,
				tool('write_note', 'Write a note.', { text: { type: 'string', minLength: 2001 } }, ['text']),
			],
		},
		{
			name: 'array minItems 3000',
			reference: 'https://github.com/ggml-org/llama.cpp/issues/27859',
			tools: [
				tool('tag_all', 'Tag items.', { tags: { type: 'array', minItems: 3000, items: { type: 'string' } } }, [
					'tags',
				]),
			],
		},
		{
			name: 'nested maxLength 2000',
			reference: 'https://github.com/ggml-org/llama.cpp/issues/25746',
			tools: [
				tool('t', 'd', {
					o: { type: 'object', properties: { s: { type: 'string', maxLength: 2000 } } },
				}),
			],
		},
		{
			name: 'array of objects, maxItems 50, item maxLength 2000',
			reference: 'https://github.com/ggml-org/llama.cpp/issues/27859',
			tools: [
				tool('report_findings', 'Reports code-review findings as typed data.', {
					findings: {
						type: 'array',
						maxItems: 50,
						items: {
							type: 'object',
							properties: { summary: { type: 'string', maxLength: 2000 } },
							required: ['summary'],
						},
					},
				}),
			],
		},
		{
			name: 'pattern with lookahead (zod email)',
			reference: 'https://github.com/codefuturist/email-mcp/issues/58',
			tools: [
				tool(
					'send_email',
					'Send an email.',
					{
						to: {
							type: 'string',
							pattern:
								"^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
						},
						body: { type: 'string' },
					},
					['to', 'body'],
				),
			],
		},
		{
			name: 'pattern that is not a regular expression (control: shows the grammar path is taken)',
			reference: 'https://github.com/ggml-org/llama.cpp/issues/19051',
			tools: [tool('set_tag', 'Set a tag.', { tag: { type: 'string', pattern: '^(unclosed[a-z' } }, ['tag'])],
		},
		{
			name: 'simple pattern',
			reference: 'https://github.com/ggml-org/llama.cpp/blob/master/grammars/README.md',
			tools: [tool('set_tag', 'Set a tag.', { tag: { type: 'string', pattern: '^[a-z][a-z0-9-]{0,30}$' } })],
		},
		{
			name: 'format uri and date-time',
			reference: 'https://github.com/ggml-org/llama.cpp/blob/master/grammars/README.md',
			tools: [
				tool('fetch_page', 'Fetch a page.', {
					url: { type: 'string', format: 'uri' },
					since: { type: 'string', format: 'date-time' },
				}),
			],
		},
	];
}

export function schemaBytes(tools: OpenAITool[]): number {
	return Buffer.byteLength(JSON.stringify(tools));
}
