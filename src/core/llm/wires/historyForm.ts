import { AgentError } from '../../errors';
import { historyRuleIn, type HistoryRule } from './historyRules';
import type { IdRule } from './wireIds';

/**
 * What one server taught about the histories it accepts, kept for as long as the model is (the
 * session): once a 400 named a rule of the history Keel wrote, every later request goes in the
 * strict form (ids of nine letters or digits, text after a result travelling with it). The
 * same on every wire, so each adapter only says what its strict form is.
 */
export class HistoryForm {
	private readonly _rules = new Set<HistoryRule>();

	/** True once the server named a rule: requests go in the strict form from then on. */
	get strict(): boolean {
		return this._rules.size > 0;
	}

	/** The id rule for this wire's requests: its own while nothing was named, nine characters after. */
	ids(own: IdRule): IdRule {
		return this.strict ? 'nine' : own;
	}

	/**
	 * A 400's words: true when they name a rule of the history and the request should be
	 * re-formed and sent once more (only the first time: a server that refuses the strict form
	 * too has its words shown).
	 */
	learn(words: string): boolean {
		const rule = ruleOfOurHistory(words);
		if (!rule) {
			return false;
		}
		const reform = !this.strict;
		this._rules.add(rule);
		return reform;
	}

	/** The error to end on: a history refused again in the strict form cannot pass as sent, the chat shows the server's words. */
	refusal(mapped: AgentError): AgentError {
		const rule =
			mapped.details.status === 400
				? ruleOfOurHistory(`${mapped.message} ${mapped.details.body ?? ''}`)
				: undefined;
		return rule && this.strict
			? new AgentError(mapped.code, mapped.message, { ...mapped.details, historyRule: rule })
			: mapped;
	}
}

/**
 * A rule the history Keel wrote can break. Replayed arguments are always valid JSON objects
 * (every wire writes them so), so words about arguments that do not parse speak of the model's
 * own call the server could not read: that is the failure table's to recover (ask the model
 * again), not a history to re-form.
 */
export function ruleOfOurHistory(words: string): HistoryRule | undefined {
	const rule = historyRuleIn(words);
	return rule === 'jsonArguments' ? undefined : rule;
}
