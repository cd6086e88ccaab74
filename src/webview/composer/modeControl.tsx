import { useEverydayState } from '../state/useEverydayState';
import { post } from '../state/vscodeApi';

/** The session's mode (Act, Plan, or one of keel.modes); choosing another switches it for this chat. */
export function ModeControl({ disabled }: { disabled: boolean }) {
	const { mode, modes } = useEverydayState();
	if (!mode) {
		return null;
	}
	const current = modes.find(m => m.id === mode.id);
	return (
		<select
			class="mode-control"
			data-testid="mode"
			data-mode={mode.id}
			aria-label="Mode"
			title={current?.description ?? mode.name}
			value={mode.id}
			disabled={disabled}
			onChange={e => post({ type: 'setMode', name: (e.target as HTMLSelectElement).value })}
		>
			{(modes.length ? modes : [mode]).map(m => (
				<option key={m.id} value={m.id} title={m.description}>
					{m.name}
				</option>
			))}
		</select>
	);
}
