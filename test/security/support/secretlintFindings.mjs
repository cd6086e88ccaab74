// Prints, as JSON, what secretlint's recommended preset (a maintained public rule set) finds
// in the text given on stdin. The security tier checks Keel's redaction against it. ESM only,
// so it runs in its own Node process.
import { lintSource } from '@secretlint/core';
import { creator } from '@secretlint/secretlint-rule-preset-recommend';

let content = '';
for await (const chunk of process.stdin) content += chunk;
const result = await lintSource({
	source: { filePath: '/corpus/notes.txt', content, contentType: 'text' },
	options: { config: { rules: [{ id: creator.meta.id, rule: creator }] }, maskSecrets: false },
});
process.stdout.write(
	JSON.stringify(result.messages.map(m => ({ rule: m.ruleId, text: content.slice(m.range[0], m.range[1]) }))),
);
