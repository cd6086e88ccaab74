import type { ToolSpec } from '../../../llm/chatModel';
import type { ToolRegistry } from '../../../tools/registry';
import { DEFAULT_MAX_OFFERED, REQUEST_TOOLS, type ToolBudget } from '../../toolPolicy/toolSelection';
import type { Failure } from './failure';
import { giveUp, retract } from './giveUp';
import type { RequestResult } from '../recoveryContext';

/**
 * The server could not compile the tool schemas into its grammar (llama.cpp, LM Studio: "failed
 * to parse grammar", "JSON schema conversion failed"): whatever the words, the request cannot
 * succeed as sent. Sent once more with fewer tools, each in its simplest form, and the session
 * keeps them so; refused again, the turn ends saying what happened and which setting changes it.
 */
export function simplifyTools(f: Failure): RequestResult | undefined {
	const { ctx, c } = f;
	const sent = f.plan.tools.length;
	const simpler = sent > 0 ? ctx.onToolSchemaRefused?.() : undefined;
	if (!simpler || !ctx.budget.take()) {
		return giveUp(f, schemaAdvice(f.plan.tools, ctx.registry, simpler === undefined && sent > 0));
	}
	retract(ctx, f.partial, 'retry');
	f.notice(
		'warning',
		'toolSchema',
		`${c.label}: "${c.words.slice(0, 160)}". Sent again with ${simpler.after} of ${simpler.before} tools, each schema in its simplest form (kept so for this chat).`,
	);
	return undefined;
}

/** What happened, and the settings that change it: text-mode calls compile nothing, fewer tools compile less. */
export function schemaAdvice(sent: readonly ToolSpec[], registry: ToolRegistry, simplified: boolean): string {
	const sources = [
		...new Set(sent.flatMap(spec => registry.get(spec.name)?.source?.replace(/^mcp:/, '') ?? [])),
	].filter(source => source !== 'vscode.lm');
	const requester = registry.get(REQUEST_TOOLS) as { budget?: () => ToolBudget } | undefined;
	const maxOffered = requester?.budget?.().maxOffered ?? DEFAULT_MAX_OFFERED;
	return [
		`The server could not compile a tool-call grammar from the ${sent.length} tool schemas Keel sent${simplified ? ', even with fewer tools in their simplest form' : ''}.`,
		'Set keel.recovery.toolMode to "text" (the tools are described in the prompt and the server compiles nothing),',
		`or offer fewer tools with keel.tools.maxOffered (now ${maxOffered})${
			sources.length
				? `, or switch off the MCP server${sources.length > 1 ? 's' : ''} ${sources.join(', ')} in "Keel: MCP Servers"`
				: ''
		}.`,
	].join(' ');
}
