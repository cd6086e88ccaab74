import type { ToolCallView } from '../../shared/views';
import { post } from '../state/vscodeApi';

/** A write's unified diff, coloured per line, with a button that opens VS Code's diff editor on the same change. */
export function DiffView({ call }: { call: ToolCallView }) {
	if (!call.diffs?.length) {
		return null;
	}
	return (
		<div class="tool-diffs" data-testid="tool-diffs">
			{call.diffs.map((diff, index) => {
				const lines = diff.unified
					.split('\n')
					.filter(line => !line.startsWith('---') && !line.startsWith('+++'));
				return (
					<details
						class="tool-diff"
						open={call.status === 'awaitingApproval'}
						data-testid="tool-diff"
						data-path={diff.path}
					>
						<summary>
							{diff.path} <span class="diff-added">+{diff.added}</span>{' '}
							<span class="diff-removed">−{diff.removed}</span>{' '}
							<button
								class="link"
								data-testid="tool-open-diff"
								aria-label={`Open the diff of ${diff.path} in the editor`}
								onClick={e => {
									e.preventDefault();
									post({ type: 'openDiff', toolCallId: call.id, index });
								}}
							>
								Open diff
							</button>
						</summary>
						{diff.notice ? (
							<p class="diff-notice" data-testid="diff-too-large">
								{diff.notice}
							</p>
						) : null}
						<pre class="diff">
							{lines.map(line => (
								<div
									class={
										line.startsWith('+')
											? 'diff-line added'
											: line.startsWith('-')
												? 'diff-line removed'
												: line.startsWith('@@')
													? 'diff-line hunk'
													: 'diff-line'
									}
								>
									{line || ' '}
								</div>
							))}
							{diff.omittedLines ? (
								<div class="diff-line hunk" data-testid="diff-omitted">
									… {diff.omittedLines} more lines: Open diff shows the whole change
								</div>
							) : null}
						</pre>
					</details>
				);
			})}
		</div>
	);
}

/** "Always allow" adds this rule; shown in words so the user sees what they agree to. */
export function ruleText(rule: NonNullable<ToolCallView['suggestedRule']>): string {
	return `${rule.tool}${rule.match !== undefined ? `(${rule.match})` : ''}`;
}
