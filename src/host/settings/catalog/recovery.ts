import { bool, category, choice, num, setting } from '../settingSpec';

export const RECOVERY = category('Recovery', {
	'recovery.enabled': setting(
		bool(true),
		'Recover from broken tool calling and flaky servers (retries, argument repair, calls written as text, reflection, loop guards). Off: a plain loop.',
	),
	'recovery.toolMode': choice(
		{
			auto: 'Native tool calling; a model whose native calls keep failing switches to text-mode calls (after `#keel.recovery.textModeAfterFailures#` failures), remembered per model.',
			native: "Always the server's native tool calling.",
			text: 'Tools described in the system prompt and calls read from the answer text.',
		},
		'auto',
		'How the model is asked to call tools.',
	),
	'recovery.maxRetriesPerTurn': setting(
		num(6, 0),
		'Retries per user turn, shared by rate limits, server errors, broken streams and tool-call corrections.',
	),
	'recovery.streamIdleTimeoutSeconds': setting(
		num(120, 5),
		"A streaming answer silent for this many seconds after its first token is treated as broken and asked again. Before the first token the server may read a long prompt for minutes: Keel waits as long as the server shows it is alive (llama.cpp's progress, pings, or its health check answering every quarter of this time, at most 15 s), shows the progress in the chat, and never sends the request again meanwhile; a server that stops answering fails at once.",
	),
	'agent.loopRepeats': setting(
		num(3, 2),
		'The same tool call with the same result this many times in a row (or an A-B-A-B cycle) is a loop: Keel tells the model to change approach once, then stops.',
	),
});
