import * as assert from 'assert';
import { describeModelFailure, extractErrorMessage } from '../../../../../src/core/llm/stream/httpErrors';

const ollama = { baseUrl: 'http://127.0.0.1:11434/v1', model: 'glm-4.7-flash' };

describe('model failure messages', () => {
	it('tells the user how to start Ollama when nothing answers', () => {
		const error = describeModelFailure({ connection: true }, ollama);
		assert.strictEqual(error.code, 'modelUnreachable');
		assert.match(
			error.message,
			/No model server answered at http:\/\/127\.0\.0\.1:11434\/v1 — start Ollama with `ollama serve`/,
		);
	});

	it('points to Set API Key on 401/403 and names the model on 404', () => {
		assert.match(describeModelFailure({ status: 401, body: '{}' }, ollama).message, /Keel: Set API Key/);
		const notFound = describeModelFailure(
			{ status: 404, body: '{"error":{"message":"model \\"glm-4.7-flash\\" not found, try pulling it first"}}' },
			ollama,
		);
		assert.strictEqual(notFound.code, 'modelNotFound');
		assert.match(notFound.message, /Model "glm-4\.7-flash" was not found/);
	});

	it('extracts messages from each server family', () => {
		assert.strictEqual(
			extractErrorMessage('{"error":"error parsing tool call: raw=\'x\'"}'),
			"error parsing tool call: raw='x'",
		);
		assert.strictEqual(
			extractErrorMessage(
				'{"error":{"code":500,"message":"Failed to parse input at pos 12","type":"server_error"}}',
			),
			'Failed to parse input at pos 12',
		);
		assert.strictEqual(
			extractErrorMessage('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'),
			'Overloaded',
		);
		assert.strictEqual(extractErrorMessage('plain text'), 'plain text');
	});
});
