import type { StepCall } from './modelStep';
import { runAhead, isTheStepsCall, type AheadRun, type ToolRunContext } from './toolExecution';

/**
 * Reads that start while the model is still streaming: a call whose arguments are complete in
 * the stream starts at once when it only reads, needs no approval, and every call before it in
 * the stream started the same way (a write, or a call that must wait, stops the run there), up
 * to `limit` of them. Nothing is decided here: the step's calls, once reviewed, claim the runs
 * that are exactly theirs (runCalls records them in call order), and whatever is not claimed is
 * dropped, so the history and the next request are what calls run after the stream would make.
 */
export class EarlyCalls {
	private readonly _runs: Array<{ call: StepCall; run: AheadRun }> = [];
	private _open = true;
	private _claimed = 0;

	constructor(
		private readonly _ctx: ToolRunContext,
		private readonly _limit: number,
		/** The tools this request offers: a call of any other is the review's to answer. */
		private readonly _offered: () => readonly { name: string }[],
	) {}

	/** A call complete in the stream, at `index` among the response's calls. */
	start(call: StepCall, index: number): void {
		if (!this._open || index !== this._runs.length || this._runs.length >= this._limit) {
			this._open = false;
			return;
		}
		const run = this._offered().some(tool => tool.name === call.name) ? runAhead(call, this._ctx) : undefined;
		if (!run) {
			this._open = false;
			return;
		}
		this._runs.push({ call, run });
	}

	/**
	 * The runs that are the step's own calls, by position, as far as they match from the first;
	 * everything else started early is dropped.
	 */
	claim(calls: readonly StepCall[]): Map<number, AheadRun> {
		this._open = false;
		const claimed = new Map<number, AheadRun>();
		while (
			this._claimed < this._runs.length &&
			this._claimed < calls.length &&
			isTheStepsCall(this._runs[this._claimed].call, calls[this._claimed])
		) {
			claimed.set(this._claimed, this._runs[this._claimed].run);
			this._claimed++;
		}
		this.drop();
		return claimed;
	}

	/** Stops every run nobody claimed (the response was asked again, cut, or changed by the review). */
	drop(): void {
		this._open = false;
		for (const { run } of this._runs.splice(this._claimed)) {
			run.drop();
			this._ctx.abandoned?.add(run.settled);
		}
	}
}
