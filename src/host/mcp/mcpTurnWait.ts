import { AgentError } from '../../core/errors';
import type { TurnWait } from '../../core/session/chatSession';
import type { McpManager } from './mcpManager';

/**
 * A prompt sent while a workspace server's consent card is open waits for the answer instead of
 * running without that server's tools: it says so under the prompt, brings the card into view,
 * and goes on once every card is answered (Allow starts the server first). Stop ends the wait.
 */
export async function waitForMcpConsents(
	mcp: Pick<McpManager, 'openConsents' | 'consentPrompts'>,
	wait: TurnWait | undefined,
): Promise<void> {
	const { names, answered } = mcp.openConsents();
	if (names.length === 0 || !wait) {
		return;
	}
	const which = names.length === 1 ? `the MCP server ${names[0]}` : `the MCP servers ${names.join(', ')}`;
	wait.say(
		`Waiting for your answer: may Keel start ${which}? Allow or Deny on the card above the message box; this message is sent after.`,
	);
	mcp.consentPrompts.reveal();
	const stopped = new Promise<never>((_, reject) => {
		const onAbort = () => reject(new AgentError('cancelled', 'Stopped.'));
		if (wait.signal.aborted) {
			onAbort();
		}
		wait.signal.addEventListener('abort', onAbort, { once: true });
	});
	await Promise.race([answered, stopped]);
}
