import type { Header } from '../state/store';
import { post } from '../state/vscodeApi';

/**
 * A new chat: what Keel does, the model it will ask and where; in Restricted Mode, that only
 * read tools run and the one button that changes it; and a way to check how well the model works.
 */
export function EmptyState({ header }: { header: Header }) {
	return (
		<div class="empty" data-testid="empty-state">
			{header.restricted ? (
				<p class="restricted" data-testid="empty-restricted">
					This folder is in Restricted Mode: Keel can read and search it, but it does not change files, run
					commands or fetch from the network until you trust the folder.{' '}
					<button
						class="secondary"
						data-testid="action-manageTrust"
						onClick={() => post({ type: 'runAction', action: 'manageTrust' })}
					>
						Manage Workspace Trust
					</button>
				</p>
			) : (
				<p>
					Ask Keel about your workspace. Reads run on their own; anything that changes files asks you first.
				</p>
			)}
			<p>
				Model: <strong data-testid="empty-model">{header.modelLabel || 'not set'}</strong>
				{header.endpoint ? (
					<>
						{' '}
						at <code data-testid="empty-endpoint">{header.endpoint}</code>
					</>
				) : null}
				. Change it with <em>Keel: Select Model</em> or the <code>keel.model.*</code> settings.
			</p>
			<p>
				<button class="secondary" data-testid="empty-check-model" onClick={() => post({ type: 'checkModel' })}>
					Check this model
				</button>{' '}
				runs a few minutes of real tasks and says how well it works with Keel, and with which settings.
			</p>
		</div>
	);
}
