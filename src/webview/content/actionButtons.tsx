import type { ActionView } from '../../shared/views';
import { post } from '../state/vscodeApi';

/** The ways out a notice or the error banner offers (Retry, Select Model, Manage Workspace Trust …). */
export function ActionButtons({ actions }: { actions: ActionView[] | undefined }) {
	if (!actions?.length) {
		return null;
	}
	return (
		<span class="notice-actions">
			{actions.map(action => (
				<button
					key={`${action.action}:${action.setting ?? ''}`}
					class={action.action === 'retryTurn' ? 'primary' : 'secondary'}
					data-testid={`action-${action.action}`}
					onClick={() =>
						post(
							action.setting
								? { type: 'runAction', action: action.action, setting: action.setting }
								: { type: 'runAction', action: action.action },
						)
					}
				>
					{action.label}
				</button>
			))}
		</span>
	);
}
