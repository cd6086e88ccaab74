/**
 * Images attached to a user message: what the composer accepts, how big, and how each wire
 * carries them (OpenAI-compatible `image_url` data URLs, Ollama's `images` array, Anthropic
 * base64 `image` blocks). Kept as base64 in the canonical message so the store keeps them
 * with the session and a resumed chat sends them again.
 */
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface ImagePart {
	mediaType: ImageMediaType;
	/** The image file, base64 (no data: prefix). */
	data: string;
	/** The pasted or dropped file's name, for the chip and the transcript. */
	name: string;
	bytes: number;
}

/** A send refused because of its images (format, size, a model without vision): nothing was sent. */
export class ImagesRefused extends Error {
	override readonly name = 'ImagesRefused';
}

/** Anthropic refuses images over 5 MB and recommends far less; one limit for every wire keeps a session portable. */
export const IMAGE_LIMITS = { maxBytes: 4 * 1024 * 1024, maxPerMessage: 4 } as const;

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
const SIGNATURES: Array<{ mediaType: ImageMediaType; test: (b: Uint8Array) => boolean }> = [
	{ mediaType: 'image/png', test: b => b.length > 8 && ascii(b, 0, 8) === '\x89PNG\r\n\x1a\n' },
	{ mediaType: 'image/jpeg', test: b => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
	{ mediaType: 'image/gif', test: b => b.length > 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') },
	{ mediaType: 'image/webp', test: b => b.length > 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
];

/** Decoded size of base64 text, and its first bytes (enough for the signatures) without decoding it all. */
function peek(data: string): { size: number; head: Uint8Array } {
	const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
	const head = atob(data.slice(0, 24));
	return { size: Math.floor((data.length * 3) / 4) - padding, head: Uint8Array.from(head, c => c.charCodeAt(0)) };
}

/**
 * Checks images from the webview before they go anywhere: the bytes must be one of the four
 * formats every wire takes (by their signature, not the claimed type), within the limits.
 * Throws a sentence that says what to do.
 */
export function validateImages(images: ReadonlyArray<{ name?: unknown; data?: unknown }>): ImagePart[] {
	if (images.length > IMAGE_LIMITS.maxPerMessage) {
		throw new ImagesRefused(
			`A message can carry at most ${IMAGE_LIMITS.maxPerMessage} images; remove ${images.length - IMAGE_LIMITS.maxPerMessage} and send again.`,
		);
	}
	return images.map(image => {
		const name = typeof image.name === 'string' && image.name ? image.name.slice(0, 200) : 'image';
		if (typeof image.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(image.data)) {
			throw new ImagesRefused(`${name} is not readable image data; paste or drop the image again.`);
		}
		const { size, head } = peek(image.data);
		if (image.data.length % 4 !== 0 || size === 0) {
			throw new ImagesRefused(`${name} is not readable image data; paste or drop the image again.`);
		}
		if (size > IMAGE_LIMITS.maxBytes) {
			throw new ImagesRefused(
				`${name} is ${formatBytes(size)}; images are limited to ${formatBytes(IMAGE_LIMITS.maxBytes)}. Scale it down or crop it, then attach it again.`,
			);
		}
		const kind = SIGNATURES.find(signature => signature.test(head));
		if (!kind) {
			throw new ImagesRefused(
				`${name} is not a PNG, JPEG, GIF or WebP image; convert it to one of those and attach it again.`,
			);
		}
		return { mediaType: kind.mediaType, data: image.data, name, bytes: size };
	});
}

export function formatBytes(bytes: number): string {
	return bytes < 1024
		? `${bytes} B`
		: bytes < 1024 * 1024
			? `${Math.round(bytes / 1024)} KB`
			: `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** OpenAI-compatible content parts: the text, then each image as a data URL. */
export function openaiUserContent(
	text: string,
	images: readonly ImagePart[],
): Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }> {
	return [
		{ type: 'text', text },
		...images.map(image => ({
			type: 'image_url' as const,
			image_url: { url: `data:${image.mediaType};base64,${image.data}` },
		})),
	];
}

/** Anthropic blocks: images first (as its documentation advises), then the text. */
export function anthropicImageBlocks(
	images: readonly ImagePart[],
): Array<{ type: 'image'; source: { type: 'base64'; media_type: ImageMediaType; data: string } }> {
	return images.map(image => ({
		type: 'image' as const,
		source: { type: 'base64' as const, media_type: image.mediaType, data: image.data },
	}));
}
