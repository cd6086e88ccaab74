import { useEffect, useState } from 'preact/hooks';
import { mcpConsentState } from './mcpConsentState';
import { post } from './vscodeApi';

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
					role="group"
					aria-label={`MCP server ${c.server}`}
				>
					<span>
						Server <strong>{c.server}</strong> from <code>{c.source}</code> wants to run:{' '}
						<code data-testid="mcp-consent-runs">{c.runs}</code>
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
