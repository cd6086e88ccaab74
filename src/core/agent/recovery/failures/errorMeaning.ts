/**
 * What a server's error says, read from its words rather than its status code: a quota sent
 * as 429, a context overflow sent as 500 or inside a 200 stream, an out-of-memory sent as 503
 * all mean the request cannot succeed as sent, whatever the status. Each meaning is a concept
 * (a subject and what happened to it), so phrasings nobody listed still read right.
 */
export type Meaning =
	| { kind: 'toolFormat' }
	| { kind: 'toolsUnsupported'; vllm: boolean }
	| { kind: 'toolSchema' }
	| { kind: 'reasoningRefused' }
	| { kind: 'outputBudget'; cap?: number }
	| { kind: 'contextOverflow'; window?: number }
	| { kind: 'requestOverLimit'; limit: number; requested: number }
	| { kind: 'outOfMemory' }
	| { kind: 'quota'; waitMs?: number }
	| { kind: 'rateLimited'; waitMs?: number }
	| { kind: 'overloaded' }
	| { kind: 'auth' }
	| { kind: 'modelMissing' };

const TOOL_FORMAT =
	/error parsing tool call|failed to parse (?:the )?(?:input|tool|function)|tool[ _-]?call (?:pars|format)|tool_use_failed|failed_generation|invalid tool call|(?:could not|cannot|unable to) parse (?:the )?(?:tool|function)|failed to call a function|malformed (?:tool|function) call/i;
const NO_TOOLS =
	/does not support (?:tools|function calling|tool calling)|tool choice requires --enable-auto-tool-choice|--tool-call-parser|tools? (?:are|is) not supported|tool_choice.*not supported|--jinja/i;
/**
 * The server could not turn the tool schemas into what constrains its sampling (llama.cpp and
 * LM Studio compile them into one GBNF grammar; vLLM and SGLang into xgrammar or outlines): a
 * clause naming that machinery and saying it failed, whatever the status and the envelope.
 */
const SCHEMA_SUBJECT =
	/\b(?:grammars?|gbnf|e?bnf|samplers?|sampling subsystem|json[ -]?schemas?|schema conversion|invalid schema for (?:function|tool)|(?:tool[- ]call |automatic )?parser (?:generation|for (?:this|the) template)|structured outputs?|(?:constrained|guided) decoding|xgrammar|outlines|llguidance|repetitions?|rules? (?:that|which) (?:are|is) going to be repeated)\b/i;
const SCHEMA_FAILED =
	/\b(?:fail\w*|could not|couldn't|cannot|can't|unable|invalid|unsupported|not supported|exceeds?|too (?:large|complex|many|deep|long)|unresolved|unexpected empty|please reduce|not (?:valid|allowed))\b/i;
const REASONING_REFUSED = /reasoning_content|\bthinking\b.*(?:not (?:allowed|permitted|supported)|unexpected|extra)/i;
/** An output budget: the parameter, then what is wrong with it. */
const BUDGET_NAME =
	/max_tokens|max_completion_tokens|max_new_tokens|num_predict|max_output_tokens|output tokens|completion tokens|in the completion/i;
const BUDGET_WRONG =
	/too large|exceed|>|maximum allowed|at most|greater than|must be (?:less|<=|at most)|limit|in the completion/i;
const CONTEXT =
	/context[ _-]?(?:length|window|size|limit)|maximum context|prompt (?:is )?too long|input (?:is )?too long|too many (?:input )?tokens|exceeds? (?:the )?(?:max(?:imum)? )?(?:context|input|sequence|prompt)|input length|reduce the length|max_seq_len|max_model_len|num_ctx|request too large|tokens? .{0,20}(?:exceed|longer than)|longer than the model/i;
const MEMORY =
	/out of memory|\boom\b|(?:more|enough|insufficient|available) (?:system |gpu |video )?memory|failed to allocate|unable to allocate|cudamalloc failed|memory allocation|cannot allocate/i;
const QUOTA =
	/quota|insufficient[_ ](?:balance|funds|credits?)|(?:balance|credits?) (?:is |are )?(?:too low|insufficient|exhausted)|out of credits|billing|payment required|recharge|no resource package|"code"\s*:\s*"?1113\b|usage limit|plan limit|resource_exhausted|purchase credits/i;
const SHORT_WINDOW = /per[ _-]?minute|perminute|per[ _-]?second|\brpm\b|\btpm\b|\brps\b/i;
const RATE = /rate[ _-]?limit|too many requests|slow down|requests per|tokens per/i;
const OVERLOADED =
	/overloaded|(?:server|service) (?:had|has|encountered|experienced) an (?:internal )?error|internal server error|retry your request|temporarily unavailable|service unavailable|server is busy|please try again|try again later|(?:loading|is loading) (?:the )?model|loading model|capacity|upstream|timed? ?out|reset before headers|connection reset|bad gateway|gateway timeout/i;
const AUTH =
	/invalid (?:x-)?api[_ -]?key|incorrect api key|unauthori[sz]ed|authentication|permission denied|forbidden/i;
const MODEL_MISSING =
	/model\b.{0,60}(?:not found|does not exist|not available)|no such model|unknown model|model_not_found/i;

/** Reads an error's meaning from its words (and its status where words are absent); undefined when nothing fits. */
export function readMeaning(text: string, status?: number, asked?: number, now = Date.now()): Meaning | undefined {
	if (TOOL_FORMAT.test(text)) return { kind: 'toolFormat' };
	if (NO_TOOLS.test(text))
		return { kind: 'toolsUnsupported', vllm: /enable-auto-tool-choice|tool-call-parser/i.test(text) };
	if (toldSchemaFailed(text)) return { kind: 'toolSchema' };
	if ((status === 400 || status === 422) && REASONING_REFUSED.test(text)) return { kind: 'reasoningRefused' };
	const budget = budgetMeaning(text, asked);
	if (budget) return budget;
	const perWindow = RATE.test(text.replace(/request too large/i, '')) || SHORT_WINDOW.test(text);
	if (CONTEXT.test(text) && !RATE.test(text.replace(/request too large/i, '')))
		return { kind: 'contextOverflow', window: windowNamed(text) };
	const over = requestOverLimit(text);
	if (over) return over;
	const told = toldAbout(text);
	if (!perWindow && told.promptTooLong) return { kind: 'contextOverflow', window: windowNamed(text) };
	if (!perWindow && told.outputTooLong) return { kind: 'outputBudget', cap: budgetCap(text, asked) };
	if (MEMORY.test(text) || told.memoryShort) return { kind: 'outOfMemory' };
	const waitMs = namedWaitMs(text, now);
	if ((QUOTA.test(text) || (told.accountSpent && !RATE.test(text))) && !SHORT_WINDOW.test(text)) {
		return { kind: 'quota', waitMs };
	}
	if (status === 429 || RATE.test(text) || QUOTA.test(text)) return { kind: 'rateLimited', waitMs };
	if (OVERLOADED.test(text) || BUSY.test(text)) return { kind: 'overloaded' };
	if (status === 401 || status === 403 || AUTH.test(text)) return { kind: 'auth' };
	if (MODEL_MISSING.test(text)) return { kind: 'modelMissing' };
	return undefined;
}

/** The window a context error names: "context size (4096 tokens)", "maximum context length is 8192", `"n_ctx": 4096`. */
const WINDOW_NUMBER =
	/(?:context(?:[ _-]?(?:size|length|window|limit))|n_ctx|max_model_len|num_ctx)(?:\s+(?:is|of))?[\s"':=(]{0,4}(\d[\d,]*)/i;

/** The size of the server's window, when its words name one: a request must fit under it. */
function windowNamed(text: string): number | undefined {
	const m = WINDOW_NUMBER.exec(text);
	const n = m ? Number(m[1].replace(/,/g, '')) : undefined;
	return n !== undefined && n >= 256 ? n : undefined;
}

/** A number named as a limit, and one named as what was asked for. */
const LIMIT_NUMBER = /\b(?:limit|max(?:imum)?|allowed|capacity)\w*(?:\s+(?:is|of|=|at))?\s*[:=]?\s*(\d[\d,]*)/gi;
const REQUESTED_NUMBER =
	/\b(?:request(?:ed|s)?|asked|need(?:ed|s)?|requires?|given)\w*(?:\s+(?:is|of|=|for))?\s*[:=]?\s*(\d[\d,]*)/gi;

/**
 * A limit the request alone exceeds ("Limit 6000, Requested 7000", "requested 9,000 tokens, max
 * 8,000"): waiting never makes it fit, whatever the status or the window the limit is counted
 * over, so it is read before any rate or busy meaning. Only the request shrinking helps.
 */
function requestOverLimit(text: string): Meaning | undefined {
	const num = (s: string) => Number(s.replace(/,/g, ''));
	const limits = [...text.matchAll(LIMIT_NUMBER)].map(m => num(m[1])).filter(n => n > 0);
	const asked = [...text.matchAll(REQUESTED_NUMBER)].map(m => num(m[1])).filter(n => n > 0);
	if (limits.length === 0 || asked.length === 0) return undefined;
	const limit = Math.min(...limits);
	const requested = Math.max(...asked);
	return requested > limit ? { kind: 'requestOverLimit', limit, requested } : undefined;
}

/**
 * The phrasings nobody listed: a subject and what happened to it, said in one clause ("Prompt
 * exceeds max length", "not enough RAM to load the model", "Insufficient account balance").
 */
const PROMPT_SUBJECT = /\b(?:prompt|input|context|messages|conversation|sequence|history|tokens?)\b/i;
const OUTPUT_SUBJECT = /\b(?:output|completion|generation|response)\b/i;
const TOO_MUCH =
	/\bexceed(?:s|ed|ing)?\b|\btoo (?:long|large|big|many)\b|\b(?:larger|longer|greater|bigger|more) than\b|\bover (?:the )?(?:limit|max(?:imum)?)\b|\b(?:limit|maximum|max)\b|\brange of\b|\bshould be (?:in|within|between|at most|less)\b|\d\s*>\s*\d|\boverflow/i;
const MEMORY_SUBJECT = /\b(?:memory|ram|vram)\b|\balloc\w*\b.{0,40}\bbuffer|\bbuffer\b.{0,20}\balloc/i;
const SHORT_OF =
	/\b(?:out of|ran out|run out|exhausted|insufficient|not enough|too little|unable|failed|cannot|can't|could not|exceed\w*)\b|\bmore\b.{0,40}\bthan\b.{0,20}\bavailable\b/i;
// What the account may spend. A limit per day or hour alone is a rate over a long window: its wait is named.
const ACCOUNT_SUBJECT =
	/\b(?:quota|balance|credits?|billing|spend(?:ing)?|funds|plan|subscription|tier|account|usage)\b/i;
const SPENT =
	/\b(?:exceed\w*|insufficient|run out|ran out|out of|exhausted|reached|too low|cap|upgrade|recharge|top[- ]?up|depleted|used up|limit)\b/i;
const BUSY =
	/\b(?:too busy|is busy|congested|high (?:load|demand|traffic)|try (?:again )?later|warming up|please wait)\b/i;

/** One clause names the grammar (or schema, or sampler) and says it failed: "Failed to initialize samplers: failed to parse grammar". */
function toldSchemaFailed(text: string): boolean {
	const clauses = text
		.replace(/\\n/g, '\n')
		.replace(/"[\w$.-]+"\s*:/g, ' ')
		.split(/(?<=[.!?;])\s+|\n+/);
	return clauses.some(c => SCHEMA_SUBJECT.test(c) && SCHEMA_FAILED.test(c));
}

function toldAbout(text: string): {
	promptTooLong: boolean;
	outputTooLong: boolean;
	memoryShort: boolean;
	accountSpent: boolean;
} {
	// The words of the message, not its envelope's keys (`"message":`, `"type":`).
	const clauses = text.replace(/"[\w$.-]+"\s*:/g, ' ').split(/(?<=[.!?;])\s+|\n+/);
	const said = (test: (clause: string) => boolean) => clauses.some(test);
	return {
		promptTooLong: said(c => PROMPT_SUBJECT.test(c) && TOO_MUCH.test(c) && !ACCOUNT_SUBJECT.test(c)),
		outputTooLong: said(c => OUTPUT_SUBJECT.test(c) && TOO_MUCH.test(c) && !PROMPT_SUBJECT.test(c)),
		memoryShort: said(c => MEMORY_SUBJECT.test(c) && SHORT_OF.test(c)),
		accountSpent: said(c => ACCOUNT_SUBJECT.test(c) && SPENT.test(c)),
	};
}

/**
 * The output budget was the problem (not the prompt): the server names the most it allows, or
 * the window and how much of it the messages took. A cap too small to answer in is a context
 * overflow after all: the prompt must shrink.
 */
function budgetMeaning(text: string, asked: number | undefined): Meaning | undefined {
	if (!BUDGET_NAME.test(text) || !BUDGET_WRONG.test(text)) return undefined;
	const cap = budgetCap(text, asked);
	if (cap !== undefined && cap < 256) return { kind: 'contextOverflow' };
	return { kind: 'outputBudget', cap };
}

function budgetCap(text: string, asked: number | undefined): number | undefined {
	const num = (s: string) => Number(s.replace(/,/g, ''));
	// vLLM: "maximum context length is L … (A in the messages, B in the completion)".
	const split = /(\d[\d,]*)\s*(?:tokens )?in the messages?,\s*(\d[\d,]*)\s*(?:tokens )?in the completion/i.exec(text);
	const limit = /context length is (\d[\d,]*)/i.exec(text);
	if (split && limit) return num(limit[1]) - num(split[1]);
	// Anthropic: "A + B > L"; TGI: "must be <= L. Given: A inputs tokens and B max_new_tokens".
	const sum = /(\d[\d,]*)\s*\+\s*(\d[\d,]*)\s*>\s*(\d[\d,]*)/.exec(text);
	if (sum) return num(sum[3]) - num(sum[1]);
	const tgi = /<=\s*(\d[\d,]*)[\s\S]*?given:\s*(\d[\d,]*)/i.exec(text);
	if (tgi) return num(tgi[1]) - num(tgi[2]);
	// The number the server names as its most: "> 4096", "at most 2048", "limit of 3000", "maximum … is 4096".
	const named =
		/(?:at most|up to|limit (?:of|is)|maximum(?: allowed)?(?: number of)?(?: output| completion)?(?: tokens)?(?: is)?|>|<=|less than(?: or equal to)?)\s*(\d[\d,]*)/i.exec(
			text,
		);
	if (named) return num(named[1]);
	// Otherwise the largest number below what was asked.
	const numbers = [...text.matchAll(/\d[\d,]*/g)].map(m => num(m[0])).filter(n => n >= 16);
	const below = numbers.filter(n => asked === undefined || n < asked);
	return below.length > 0 ? Math.max(...below) : undefined;
}

/** A wait the server names: "try again in 7h12m", "in 20ms", "after 30 seconds", "resets at <date>". */
export function namedWaitMs(text: string, now = Date.now()): number | undefined {
	const span =
		/(?:try again|retry|wait|resets?|available again)\s+(?:in|after)\s+((?:\d+(?:\.\d+)?\s*(?:ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\s*)+)/i.exec(
			text,
		);
	if (span) {
		let ms = 0;
		for (const m of span[1].matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/gi)) {
			ms += Number(m[1]) * unitMs(m[2].toLowerCase());
		}
		return ms;
	}
	const at =
		/(?:reset|available|try again|retry)\w*\s+(?:at|on|after)\s+([0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9:.]+(?:Z|[+-][0-9:]+| ?UTC)?)/i.exec(
			text,
		);
	if (at) {
		const when = Date.parse(at[1].replace(' UTC', 'Z').replace(/^(\S+) /, '$1T'));
		return Number.isNaN(when) ? undefined : Math.max(0, when - now);
	}
	return undefined;
}

function unitMs(unit: string): number {
	if (unit.startsWith('ms') || unit.startsWith('milli')) return 1;
	if (unit.startsWith('s')) return 1000;
	if (unit.startsWith('m')) return 60_000;
	if (unit.startsWith('h')) return 3_600_000;
	return 86_400_000;
}
