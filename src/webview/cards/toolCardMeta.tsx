import type { ToolCallView } from '../../shared/views';
import { useEffect, useState } from 'preact/hooks';
import { onRawOutput, rawOutput, requestedRawOutput, type RawOutput } from '../state/rawOutput';
import { ToolOutput } from './toolOutput';
import { post } from '../state/vscodeApi';

/** "342 → 28 lines (92% filtered, partial)"; the rule that shaped it in the tooltip. */
export function FilteredLines({ call }: { call: ToolCallView }) {
	const { from, to } = call.filtered!;
	const percent = from > 0 ? Math.round(((from - to) / from) * 100) : 0;
	const confidence = call.filterConfidence && call.filterConfidence !== 'full' ? `, ${call.filterConfidence}` : '';
	const title = call.filterRule ? `Filtered by the rule "${call.filterRule}"` : "Filtered by Keel's output filters";
	return (
		<span class="tool-filtered" data-testid="card-filtered" data-confidence={call.filterConfidence} title={title}>
			<span data-testid="tool-filtered">
				{from} → {to} lines
			</span>{' '}
			({percent}% filtered{confidence})
		</span>
	);
}

/** A failure's class in the user's words (the model reads the category itself). */
const CATEGORY_LABEL: Record<string, string> = {
	tool_not_found: 'unknown tool',
	invalid_parameters: 'wrong arguments',
	type_mismatch: 'wrong arguments',
	policy_blocked: 'refused',
	confirmation_required: 'needs approval',
	permanent_failure: 'error',
	cancelled: 'stopped',
	rate_limited: 'rate limited',
	server_error: 'server error',
	network_error: 'network error',
	timeout: 'timed out',
};

/** Small chips beside the status: answered from the cache, the class of a failure. */
export function CardBadges({ call }: { call: ToolCallView }) {
	return (
		<>
			{call.cached && (
				<span
					class="tool-chip cached"
					data-testid="card-cached"
					title="Answered from this session's result cache: the tool did not run again"
				>
					cached
				</span>
			)}
			{call.status === 'failed' && call.errorCategory && (
				<span
					class="tool-chip error-category"
					data-testid="card-error-category"
					data-category={call.errorCategory}
					title="The kind of failure"
				>
					{CATEGORY_LABEL[call.errorCategory] ?? call.errorCategory.replace(/_/g, ' ')}
				</span>
			)}
		</>
	);
}

/**
 * "Show unfiltered": asks the host for the raw text the filter shortened (the page read_output
 * would give the model) and shows it in place of the filtered result, in the same bounded block.
 */
export function UnfilteredOutput({ call, filtered }: { call: ToolCallView; filtered: string }) {
	const raw = useRawOutput(call.id);
	const [wanted, setWanted] = useState(false);
	const request = (offset: number) => {
		requestedRawOutput(call.id);
		post({ type: 'readRawOutput', toolCallId: call.id, offset });
	};
	const show = () => {
		setWanted(true);
		// Asked once per card: the text stays in the webview when the user switches back and forth.
		if (!raw || raw.error) {
			request(0);
		}
	};
	const showing = wanted && raw !== undefined && !raw.error && (raw.text !== '' || raw.loading);
	return (
		<>
			<div class="tool-output-actions">
				{showing ? (
					<>
						<span class="tool-raw-label" data-testid="unfiltered-label">
							Unfiltered output{raw.total ? ` (${raw.total.toLocaleString()} characters)` : ''}
							{raw.loading ? ' — loading…' : ''}
						</span>
						<button class="link" data-testid="show-filtered" onClick={() => setWanted(false)}>
							Show filtered
						</button>
					</>
				) : (
					<button class="link" data-testid="show-unfiltered" onClick={show}>
						Show unfiltered
					</button>
				)}
				{wanted && raw?.error && (
					<span class="tool-raw-error" data-testid="unfiltered-error" role="alert">
						{raw.error}
					</span>
				)}
			</div>
			{showing ? <ToolOutput text={raw.text} testId="unfiltered-output" /> : <ToolOutput text={filtered} />}
			{showing && raw.nextOffset !== undefined && !raw.loading && (
				<button class="link" data-testid="unfiltered-more" onClick={() => request(raw.nextOffset!)}>
					Load more
				</button>
			)}
		</>
	);
}

function useRawOutput(toolCallId: string): RawOutput | undefined {
	const [, rerender] = useState(0);
	useEffect(() => onRawOutput(toolCallId, () => rerender(n => n + 1)), [toolCallId]);
	return rawOutput(toolCallId);
}
