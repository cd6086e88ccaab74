/**
 * Puts the caret back in the composer: after Focus Chat, and after a button the user pressed
 * (Allow, Deny, Stop, Continue) goes away with its card, so the keyboard is never left on the
 * page's body. After the next paint, when the button's re-render is done.
 */
export function focusComposer(): void {
	requestAnimationFrame(() => {
		const input = document.getElementById('keel-prompt') as HTMLTextAreaElement | null;
		if (input && document.activeElement !== input) {
			input.focus();
			input.setSelectionRange(input.value.length, input.value.length);
		}
	});
}
