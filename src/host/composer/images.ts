import type { WireKind } from '../../core/llm/catalog/providers';
import { IMAGE_LIMITS, ImagesRefused, formatBytes, validateImages, type ImagePart } from '../../core/llm/imageParts';
import { readResolvedProvider } from '../models/providerConfig';
import { readSetting } from '../settings/settings';

/**
 * Whether the configured model takes images. `keel.model.supportsImages`: "auto" trusts the
 * wire only where every current model reads images (Anthropic); a local or OpenAI-compatible
 * model is asked to say so ("yes"), since sending pixels to a text-only model fails or, worse,
 * is silently ignored.
 */
export function modelTakesImages(wire: WireKind, setting: string = readSetting('model.supportsImages')): boolean {
	if (setting === 'yes') {
		return true;
	}
	if (setting === 'no') {
		return false;
	}
	return wire === 'anthropic';
}

/** Checks images before a send: readable, within the limits, and a model that takes them. Throws ImagesRefused. */
export function checkImages(
	raw: ReadonlyArray<{ name: string; data: string }>,
	model: { wire: WireKind; name: string },
): ImagePart[] {
	const images = validateImages(raw);
	if (images.length && !modelTakesImages(model.wire)) {
		throw new ImagesRefused(
			`${model.name} is not known to accept images, so the image was not sent. Switch to a vision model, or if ${model.name} does read images set keel.model.supportsImages to "yes". ` +
				`Images up to ${formatBytes(IMAGE_LIMITS.maxBytes)}, ${IMAGE_LIMITS.maxPerMessage} per message.`,
		);
	}
	return images;
}

/** The same, against the model the settings name now (keel.model.*). */
export function checkImagesForModel(raw: ReadonlyArray<{ name: string; data: string }>): ImagePart[] {
	const resolved = readResolvedProvider();
	return checkImages(raw, { wire: resolved.preset.wire, name: resolved.model });
}
