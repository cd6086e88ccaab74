import { imageFiles, type usePendingImages } from './imageAttach';
import { post } from '../state/vscodeApi';

type Pending = ReturnType<typeof usePendingImages>;

/**
 * What lands in the composer besides typing: a pasted image, a dropped image file, files or
 * folders dropped from VS Code's Explorer (sent to the host, which answers with mentions).
 */
export function composerDropHandlers(pending: Pending) {
	return {
		onPaste: (e: ClipboardEvent) => {
			const files = imageFiles(e.clipboardData);
			if (files.length) {
				// Text in the same paste still goes in the box; only the image is taken here.
				if (!e.clipboardData?.getData('text/plain')) {
					e.preventDefault();
				}
				void pending.add(files);
			}
		},
		onDragOver: (e: DragEvent) => {
			e.preventDefault();
			if (e.dataTransfer) {
				e.dataTransfer.dropEffect = 'copy';
			}
		},
		onDrop: (e: DragEvent) => {
			e.preventDefault();
			const files = imageFiles(e.dataTransfer);
			if (files.length) {
				void pending.add(files);
				return;
			}
			// From VS Code's Explorer (Shift held while dropping into a webview): a list of URIs.
			const list =
				e.dataTransfer?.getData('application/vnd.code.uri-list') ||
				e.dataTransfer?.getData('text/uri-list') ||
				'';
			const uris = list
				.split(/\r?\n/)
				.map(line => line.trim())
				.filter(line => line && !line.startsWith('#'));
			if (uris.length) {
				post({ type: 'dropUris', uris: uris.slice(0, 50) });
			}
		},
	};
}
