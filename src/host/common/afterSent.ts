/**
 * Runs `work` once the extension host has sent the renderer what the current task queued: VS
 * Code writes its messages on a zero timeout, so work started before that (reading a long
 * conversation, say) would hold them up. Returns a cancel.
 */
export function afterMessagesSent(work: () => void): () => void {
	let immediate: NodeJS.Immediate | undefined;
	const timeout = setTimeout(() => (immediate = setImmediate(work)));
	return () => {
		clearTimeout(timeout);
		if (immediate) {
			clearImmediate(immediate);
		}
	};
}
