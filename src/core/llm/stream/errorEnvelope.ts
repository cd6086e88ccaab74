import { networkFetch } from '../../gate/network/network';

/**
 * openai-node only reads `error` from an error body; vLLM answers `{"object":"error","message":…}`
 * and FastAPI-based servers `{"detail":…}`, which the SDK reduces to "400 status code (no
 * body)" — losing exactly the words (context length, --enable-auto-tool-choice) recovery
 * needs. This fetch wraps such bodies in OpenAI's envelope, keeping every original field.
 */
export function withOpenAIErrorEnvelope(inner: typeof fetch = networkFetch): typeof fetch {
	return async (input, init) => {
		const response = await inner(input, init);
		if (response.ok) {
			return response;
		}
		const text = await response.text().catch(() => '');
		return new Response(wrap(text), {
			status: response.status,
			statusText: response.statusText,
			headers: response.headers,
		});
	};
}

function wrap(text: string): string {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return text;
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || 'error' in parsed) {
		return text;
	}
	const record = parsed as Record<string, unknown>;
	const message =
		typeof record.message === 'string'
			? record.message
			: typeof record.detail === 'string'
				? record.detail
				: JSON.stringify(record.detail ?? record);
	return JSON.stringify({ error: { ...record, message } });
}
