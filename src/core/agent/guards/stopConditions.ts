/**
 * Why a turn ends, as data (vercel/ai's `stopWhen` shape): small predicates over what the
 * step left behind, listed in the order the loop checks them, each paired with what it means.
 */
export interface StepInfo {
	/** Model requests so far in the turn, re-asks included. */
	step: number;
	/** Steps that ran tools since the turn began or the user said Continue. */
	stepsSinceContinue: number;
	/** Calls the step's response asked for. */
	toolCalls: number;
	aborted: boolean;
	/** The doom-loop guard saw the same call and output again after its warning. */
	loopStopped: boolean;
}

export type StopCondition = (info: StepInfo) => boolean;

/** The model answered without calling a tool: the answer is final. */
export function noToolCalls(): StopCondition {
	return info => info.toolCalls === 0;
}

/** The user pressed Stop. */
export function wasCancelled(): StopCondition {
	return info => info.aborted;
}

/** The model kept repeating itself after the loop guard warned it. */
export function loopDetected(): StopCondition {
	return info => info.loopStopped;
}

/** `steps` steps ran tools since the last Continue (keel.agent.maxSteps): time to ask. */
export function stepCountIs(steps: number): StopCondition {
	return info => info.stepsSinceContinue >= steps;
}
