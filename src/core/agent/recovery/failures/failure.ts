/** One failed request as each failure's handler (failureActions.ts, giveUp.ts, schemaRefusal.ts) is handed it. */
import type { AgentError } from '../../../errors';
import type { NoticeCode } from '../../noticeCodes';
import type { CanonicalMessage } from '../../../llm/canonical';
import type { Classification } from './failureTable';
import type { RecoveryContext, RequestPlan } from '../recoveryContext';

/** What one request's retries have used so far. */
export interface Attempt {
	reflections: number;
	squeeze: boolean;
	/** The size the server named (its window, a limit the request exceeded): the squeezed request fits under it. */
	squeezeTo?: number;
	retries: number;
	unreachable: number;
	unknown: number;
	/** Messages added for the next try only (a reflection). */
	extra: CanonicalMessage[];
	/** The output budget the server said it allows; set once, after it refused a larger one. */
	outputCap?: number;
}

export interface Failure {
	ctx: RecoveryContext;
	attempt: Attempt;
	error: AgentError;
	c: Classification;
	partial: string;
	plan: RequestPlan;
	maxTokens?: number;
	notice(level: 'info' | 'warning' | 'error', code: NoticeCode, text: string, notify?: boolean): void;
}
