import type { NoticeCode } from '../../core/agent/noticeCodes';
import type { NoticeLevel } from '../../core/agent/events';
import type { SessionController } from '../session/sessionController';

/**
 * Shows a notice in the chat from outside the loop (rules loaded, files a turn changed, the
 * mode switched): the same line a guard's notice draws, applied to the session's view and
 * sent as a delta. Notices are view-only: they are not part of the transcript.
 */
export function postNotice(
	controller: SessionController,
	notice: { turnId?: string; level: NoticeLevel; code: NoticeCode; text: string },
): void {
	controller.showNotice(notice);
}
