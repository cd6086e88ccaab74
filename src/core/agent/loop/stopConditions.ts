/** Explicit reasons a turn ends, checked after every model step (vercel/ai's shape). */
export interface StepInfo {
	step: number;
	toolCalls: number;
}

export type StopCondition = (info: StepInfo) => boolean;

export function noToolCalls(): StopCondition {
	return info => info.toolCalls === 0;
}
