import { memo } from 'preact/compat';
import type { UsageView } from '../../shared/views';
import { post } from '../state/vscodeApi';

/** The model, the context meter and New chat; Stop lives by the composer and in the title bar. */
export const Header = memo(function Header({
	modelLabel,
	usage,
	ready,
}: {
	modelLabel: string;
	usage: UsageView | undefined;
	ready: boolean;
}) {
	return (
		<div class="toolbar" role="toolbar" aria-label="Chat">
			<span class="model" data-testid="model-label" title="keel.model.name">
				{modelLabel}
			</span>
			{usage && <ContextMeter usage={usage} />}
			<button
				class="secondary"
				data-testid="new-chat"
				aria-label="New chat"
				onClick={() => post({ type: 'newSession' })}
				disabled={!ready}
			>
				New chat
			</button>
		</div>
	);
});

function ContextMeter({ usage }: { usage: UsageView }) {
	const window = usage.contextWindow;
	const used = Math.min(usage.contextTokens, window || usage.contextTokens);
	const percent = window > 0 ? Math.round((100 * usage.contextTokens) / window) : 0;
	const estimated = usage.estimated ? ' (estimated)' : '';
	const speed = meterSpeed(usage);
	const why = usage.windowNote ? ` (${usage.windowNote})` : '';
	const label = `Context: ${compactTokens(usage.contextTokens)} of ${compactTokens(window)} tokens${estimated}${why}; this turn: ${usage.turnRequests} request${usage.turnRequests === 1 ? '' : 's'}, ${compactTokens(usage.turnTokens)} tokens${speed.long ? `; last request: ${speed.long}` : ''}`;
	return (
		<span
			class={`context-meter${percent >= 90 ? ' full' : percent >= 70 ? ' high' : ''}`}
			data-testid="context-meter"
			data-percent={percent}
			data-window={window}
			title={label}
		>
			<meter min={0} max={window || 1} value={used} aria-label={label} />
			<span class="context-figures">
				{usage.estimated ? '~' : ''}
				{compactTokens(usage.contextTokens)}/{compactTokens(window)} · {usage.turnRequests} req ·{' '}
				{compactTokens(usage.turnTokens)} tok
			</span>
			{speed.short && (
				<span class="context-speed" data-testid="context-speed">
					{speed.short}
				</span>
			)}
		</span>
	);
}

/**
 * How fast the last request was served: tokens the server took from its cache (a local model
 * re-reads only the rest), tokens it read anew, and the time to the first token.
 */
function meterSpeed(usage: UsageView): { short: string; long: string } {
	const short: string[] = [];
	const long: string[] = [];
	if (usage.cachedTokens !== undefined) {
		short.push(`${compactTokens(usage.cachedTokens)} cached`);
		long.push(`${compactTokens(usage.cachedTokens)} prompt tokens from the server's cache`);
	}
	if (usage.prefilledTokens !== undefined) {
		short.push(`${compactTokens(usage.prefilledTokens)} new`);
		long.push(`${compactTokens(usage.prefilledTokens)} read anew`);
	}
	if (usage.ttftMs !== undefined) {
		const seconds = usage.ttftMs >= 10_000 ? Math.round(usage.ttftMs / 1000) : (usage.ttftMs / 1000).toFixed(1);
		short.push(`${seconds} s`);
		long.push(`first token after ${seconds} s`);
	}
	return { short: short.join(' · '), long: long.join(', ') };
}

function compactTokens(count: number): string {
	return count >= 10_000
		? `${Math.round(count / 1000)}k`
		: count >= 1000
			? `${(count / 1000).toFixed(1)}k`
			: String(Math.round(count));
}
