import { useEffect, useState } from 'preact/hooks';
import { mcpConsentState } from '../state/mcpConsentState';
import { post } from '../state/vscodeApi';

/** The consent cards, above the composer (see mcpConsentState.ts). */
export function McpConsentCards() {
	const [, setTick] = useState(0);
	useEffect(() => mcpConsentState.subscribe(() => setTick(tick => tick + 1)), []);
	const consents = mcpConsentState.consents;
	if (consents.length === 0) {
		return null;
	}
	return (
		<div class="mcp-consents">
			{consents.map(c => (
				<div
					key={c.id}
					class={`continue-prompt mcp-consent state-${c.state}`}
					data-testid="mcp-consent"
					data-server={c.server}
					data-state={c.state}
					data-kind={c.kind ?? 'start'}
					role="group"
					aria-label={`MCP server ${c.server}`}
				>
					<span>
						Server <strong>{c.server}</strong> from <code>{c.source}</code>{' '}
						{c.kind === 'tools' ? '' : 'wants to run: '}
						<code data-testid="mcp-consent-runs">{c.runs}</code>
						{c.details?.length ? (
							<ul class="mcp-consent-details" data-testid="mcp-consent-details">
								{c.details.map(line => (
									<li key={line}>
										<code>{line}</code>
									</li>
								))}
							</ul>
						) : null}
					</span>
					{c.state === 'pending' ? (
						<span class="continue-actions">
							<button
								class="primary"
								data-testid="mcp-allow"
								onClick={() => post({ type: 'decideMcpConsent', id: c.id, allow: true })}
							>
								Allow
							</button>
							<button
								class="secondary"
								data-testid="mcp-deny"
								onClick={() => post({ type: 'decideMcpConsent', id: c.id, allow: false })}
							>
								Deny
							</button>
						</span>
					) : (
						<span class="continue-state">{c.state === 'allowed' ? 'Allowed' : 'Denied'}</span>
					)}
				</div>
			))}
		</div>
	);
}
