import * as assert from 'assert';
import { toAnthropicRequest } from '../../../../src/core/llm/wires/anthropic/anthropicWire';
import type { CanonicalMessage } from '../../../../src/core/llm/canonical';
import { IMAGE_LIMITS, ImagesRefused, validateImages } from '../../../../src/core/llm/imageParts';
import { toOllamaMessages } from '../../../../src/core/llm/wires/ollama/ollamaWire';
import { toOpenAIMessages } from '../../../../src/core/llm/wires/openai/openaiWire';

// A real 1×1 PNG (signature, IHDR, IDAT, IEND).
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]).toString('base64');

describe('Images in a prompt (validation and the three wires)', () => {
	const [image] = validateImages([{ name: 'shot.png', data: PNG }]);
	const history: CanonicalMessage[] = [
		{ kind: 'system', content: 'sys' },
		{ kind: 'user', content: 'What is in this picture?', images: [image] },
	];

	it('reads the format from the bytes and the size from the base64, whatever the file claims', () => {
		assert.deepStrictEqual(
			{ ...image, data: undefined },
			{ mediaType: 'image/png', name: 'shot.png', bytes: Buffer.from(PNG, 'base64').length, data: undefined },
		);
		assert.strictEqual(validateImages([{ name: 'photo', data: JPEG }])[0].mediaType, 'image/jpeg');
	});

	it('refuses what is not an image, too big, or too many, saying what to do', () => {
		assert.throws(
			() => validateImages([{ name: 'notes.txt', data: Buffer.from('just some text here').toString('base64') }]),
			(e: Error) => e instanceof ImagesRefused && /not a PNG, JPEG, GIF or WebP.*convert it/.test(e.message),
		);
		const big = Buffer.alloc(IMAGE_LIMITS.maxBytes + 3);
		Buffer.from(PNG, 'base64').copy(big);
		assert.throws(
			() => validateImages([{ name: 'huge.png', data: big.toString('base64') }]),
			/huge\.png is 4\.0 MB; images are limited to 4\.0 MB\. Scale it down or crop it/,
		);
		assert.throws(
			() => validateImages(Array.from({ length: 5 }, () => ({ name: 'a.png', data: PNG }))),
			/at most 4 images; remove 1/,
		);
		assert.throws(() => validateImages([{ name: 'x.png', data: 'not base64!' }]), /not readable image data/);
	});

	it('OpenAI-compatible: the user message becomes text and image_url parts with a data URL', () => {
		const user = toOpenAIMessages(history)[1];
		assert.deepStrictEqual(user, {
			role: 'user',
			content: [
				{ type: 'text', text: 'What is in this picture?' },
				{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
			],
		});
		assert.deepStrictEqual(
			toOpenAIMessages([{ kind: 'user', content: 'plain' }])[0],
			{ role: 'user', content: 'plain' },
			'a prompt without images stays a plain string',
		);
	});

	it('Ollama native: the images ride beside the text as bare base64', () => {
		assert.deepStrictEqual(toOllamaMessages(history)[1], {
			role: 'user',
			content: 'What is in this picture?',
			images: [PNG],
		});
	});

	it('Anthropic: a base64 image block before the text block', () => {
		const { messages } = toAnthropicRequest(history);
		assert.deepStrictEqual(messages[0], {
			role: 'user',
			content: [
				{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
				{ type: 'text', text: 'What is in this picture?' },
			],
		});
	});
});
