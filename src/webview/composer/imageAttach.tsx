import { useState } from 'preact/hooks';

/** What the composer holds for an image until it is sent: the file as base64, and a data URL for its thumbnail. */
export interface PendingImage {
	name: string;
	data: string;
	bytes: number;
	mediaType: string;
}

/** The same limits the host enforces (imageParts.ts), checked here first so a refusal is immediate. */
const MAX_BYTES = 4 * 1024 * 1024;
const MAX_IMAGES = 4;
const TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export function formatSize(bytes: number): string {
	return bytes < 1024
		? `${bytes} B`
		: bytes < 1024 * 1024
			? `${Math.round(bytes / 1024)} KB`
			: `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function readBase64(file: Blob): Promise<string> {
	return new Promise((resolve, reject) => {
		const reader = new FileReader();
		reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
		reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
		reader.readAsDataURL(file);
	});
}

/** An image the host handed back (a refused send): its size and type read from the base64 itself. */
export function pendingFromHost(image: { name: string; data: string }): PendingImage {
	const padding = image.data.endsWith('==') ? 2 : image.data.endsWith('=') ? 1 : 0;
	const mediaType = image.data.startsWith('iVBOR')
		? 'image/png'
		: image.data.startsWith('/9j/')
			? 'image/jpeg'
			: image.data.startsWith('R0lG')
				? 'image/gif'
				: 'image/webp';
	return { name: image.name, data: image.data, bytes: Math.floor((image.data.length * 3) / 4) - padding, mediaType };
}

/** The images in a paste or a drop (files of an image type); other content is left to its own handler. */
export function imageFiles(transfer: DataTransfer | null): File[] {
	return transfer ? Array.from(transfer.files).filter(file => file.type.startsWith('image/')) : [];
}

/** The composer's pending images: added from a paste or a drop, removable, refused over the limits with a reason. */
export function usePendingImages() {
	const [images, setImages] = useState<PendingImage[]>([]);
	const [error, setError] = useState<string | undefined>();
	const add = async (files: File[]) => {
		const accepted: PendingImage[] = [];
		const refused: string[] = [];
		for (const file of files) {
			const name = file.name || 'pasted image';
			if (!TYPES.includes(file.type)) {
				refused.push(`${name} is ${file.type || 'of an unknown type'}; attach a PNG, JPEG, GIF or WebP`);
			} else if (file.size > MAX_BYTES) {
				refused.push(
					`${name} is ${formatSize(file.size)}; images are limited to ${formatSize(MAX_BYTES)}, scale it down or crop it`,
				);
			} else {
				accepted.push({ name, data: await readBase64(file), bytes: file.size, mediaType: file.type });
			}
		}
		setImages(current => {
			const room = MAX_IMAGES - current.length;
			if (accepted.length > room) {
				refused.push(`a message carries at most ${MAX_IMAGES} images`);
			}
			return [...current, ...accepted.slice(0, Math.max(0, room))];
		});
		setError(refused.length ? `Not attached: ${refused.join('; ')}.` : undefined);
	};
	return {
		images,
		error,
		add,
		remove: (index: number) => setImages(current => current.filter((_, i) => i !== index)),
		set: (next: PendingImage[]) => {
			setImages(next);
			setError(undefined);
		},
	};
}

/** One chip per pending image: thumbnail, name, size, and × to take it out. */
export function ImageChips({
	images,
	error,
	onRemove,
}: {
	images: PendingImage[];
	error?: string;
	onRemove(index: number): void;
}) {
	if (!images.length && !error) {
		return null;
	}
	return (
		<div class="image-chips" aria-label="Attached images">
			{images.map((image, index) => (
				<span
					key={`${index}-${image.name}`}
					class="image-chip"
					data-testid="image-chip"
					data-name={image.name}
					data-bytes={image.bytes}
				>
					<img src={`data:${image.mediaType};base64,${image.data}`} alt={image.name} />
					<span class="image-label">{image.name}</span>
					<span class="image-size" data-testid="image-size">
						{formatSize(image.bytes)}
					</span>
					<button
						class="link mention-remove"
						data-testid="image-remove"
						aria-label={`Remove ${image.name}`}
						onClick={() => onRemove(index)}
					>
						×
					</button>
				</span>
			))}
			{error && (
				<div class="image-error" data-testid="image-error" role="alert">
					{error}
				</div>
			)}
		</div>
	);
}
