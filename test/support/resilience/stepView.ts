// What the simulated model of a scenario knows when it answers one request.

import type { DataStep, RecordedRequest } from '../modelDouble';
import type { Conversation } from './conversation';
import type { Scenario } from './scenarios';

export interface StepView {
	s: Scenario;
	req: RecordedRequest;
	conv: Conversation;
	/** 0 list, 1 read, 2 write, 3 final answer. */
	phase: number;
	/** The last user message is a Keel correction and this model obeys it this time. */
	corrected: boolean;
	/** The call this phase needs. */
	name: string;
	args: Record<string, string>;
	/** The right response for a phase (a native call, a text call in text mode, or the answer). */
	good(phase: number): DataStep;
	/** The scenario's seeded coin (the stubborn model's). */
	coin(): number;
	/** How many times the fault has fired before this one (bursts); counts this one. */
	fire(): number;
}
