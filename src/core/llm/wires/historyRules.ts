/**
 * What a server's 400 says about the history it was sent, read by meaning rather than by one
 * phrasing: which part it objects to (an id's form, an id that answers no call, the order of
 * roles, a missing field, an empty text, arguments that are not JSON). Each server words these
 * its own way; the words that name the part and the words that say what is wrong are found
 * separately, so a rewording still reads the same.
 */
export type HistoryRule = 'idForm' | 'idMatch' | 'roleOrder' | 'toolName' | 'emptyText' | 'jsonArguments';

const ID = /\b(?:tool[_ ]?call[_ ]?ids?|tool_use_ids?|call[_ ]ids?|ids?)\b|\.id\b/i;
const ROLE = /\b(?:user|tool|assistant|function)\b/gi;

export function historyRuleIn(words: string): HistoryRule | undefined {
	// A gateway's request id names no part of the history.
	const text = words.replace(/[\u2018\u2019"`]/g, "'").replace(/\brequest[ _-]?id\b[:=]?\s*[\w-]*/gi, '');
	// Python's json error names no field at all ("Expecting ',' delimiter: line 1 column 54"): vLLM passes it on as is.
	if (
		(/\b(?:json|arguments?)\b/i.test(text) &&
			/\b(?:invalid|not valid|parse|decode|malformed|unterminated)\b/i.test(text)) ||
		/\bExpecting (?:value|property name|'.'|',' delimiter)|\bline \d+ column \d+ \(char \d+\)/i.test(text)
	) {
		return 'jsonArguments';
	}
	if (/\btext\b/i.test(text) && /\b(?:non-?empty|empty|whitespace|blank)\b/i.test(text)) {
		return 'emptyText';
	}
	// An id's shape first: "should match pattern" speaks of its form, not of a call it answers.
	if (ID.test(text) && /\b(?:pattern|length|too long|too short|characters|alphanumeric|a-z)\b/i.test(text)) {
		return 'idForm';
	}
	// A result with no call before it: "messages with role 'tool' must be a response to a preceding message with 'tool_calls'".
	if (
		/\btool\b/i.test(text) &&
		/\b(?:(?:a )?response to|respond\w* to|preced\w*|preceed\w*|without (?:a |an )?(?:matching |corresponding )?(?:call|tool_use))\b/i.test(
			text,
		)
	) {
		return 'idMatch';
	}
	// Calls and results that do not pair up (Ollama Cloud: "mismatch between tool calls and tool results").
	if (
		/\btool[_ ]?calls?\b.*\btool[_ ]?results?\b|\btool[_ ]?results?\b.*\btool[_ ]?calls?\b/i.test(text) &&
		/\b(?:mismatch\w*|match\w*|pair\w*|correspond\w*)\b/i.test(text)
	) {
		return 'idMatch';
	}
	if (
		ID.test(text) &&
		/\b(?:match(?:es|ing)?|mismatch\w*|correspond\w*|unknown|unexpected|not found|no (?:such|matching|corresponding)|does not exist|without)\b/i.test(
			text,
		)
	) {
		return 'idMatch';
	}
	if (
		ID.test(text) &&
		/\b(?:pattern|length|long|short|characters?|alphanumeric|format|a-z|must be|should be|invalid)\b/i.test(text)
	) {
		return 'idForm';
	}
	if (
		/\bname\b/i.test(text) &&
		/\b(?:tool|function)\b/i.test(text) &&
		/\b(?:required|missing|must|needs?|expected|empty)\b/i.test(text)
	) {
		return 'toolName';
	}
	const roles = new Set((text.match(ROLE) ?? []).map(role => role.toLowerCase()));
	if (
		roles.size >= 2 &&
		/\b(?:after|follow\w*|before|precede\w*|order|sequence|alternat\w*|unexpected|expected)\b/i.test(text)
	) {
		return 'roleOrder';
	}
	return undefined;
}
