import { post } from '../state/vscodeApi';

/** The host refused this webview's protocol (Keel was updated under it): only a reload helps. */
export function ProtocolRefusalBanner({ message }: { message: string }) {
	return (
		<div class="error-banner" data-testid="protocol-refusal" role="alert">
			{message}{' '}
			<button data-testid="reload-window" onClick={() => post({ type: 'reloadWindow' })}>
				Reload Window
			</button>
		</div>
	);
}
