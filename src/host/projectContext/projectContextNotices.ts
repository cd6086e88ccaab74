import { describeMode } from '../../core/modes/modes';
import { Disposable } from '../../core/util/lifecycle';
import type { ActiveConversation } from '../common/conversation';
import type { ProjectContext } from './projectContext';

/**
 * The chat's lines about the project context: which rules a turn runs with (under its prompt,
 * once per version of the rules) and the mode a chat switched to.
 */
export class ProjectContextNotices extends Disposable {
	constructor(
		context: ProjectContext,
		controller: Pick<ActiveConversation, 'sessionId' | 'onDidEvent' | 'showNotice' | 'showNoticeIn'>,
	) {
		super();
		this._register(
			controller.onDidEvent(event => {
				if (event.type !== 'turnStarted') {
					return;
				}
				const text = context.rules.announcement(controller.sessionId);
				// After the turn's own first update, so the line sits under the prompt.
				if (text) {
					queueMicrotask(() =>
						controller.showNotice({
							turnId: event.turnId,
							level: context.rules.applied ? 'info' : 'warning',
							code: 'rules',
							text,
						}),
					);
				}
			}),
		);
		this._register(
			context.modes.onDidChange(({ sessionId, mode }) =>
				controller.showNoticeIn(sessionId, {
					level: 'info',
					code: 'mode',
					text: `Mode: ${describeMode(mode)}.`,
				}),
			),
		);
	}
}
