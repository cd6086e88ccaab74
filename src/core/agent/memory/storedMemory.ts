import * as z from 'zod';
import { ToolSelection } from '../toolPolicy/toolSelection';
import { SessionMemory } from './sessionMemory';

/**
 * What of a session's memory is kept with the session, so the first request after a reopen
 * (a reload, a restart, a chat picked from the history) extends the last one before it: a
 * local server with the conversation cached reads only what was added. Everything that decides
 * the request's bytes goes in (the system prompt as first sent, the offered tools in their
 * order with the very specs sent, what compaction stubbed or cut, the reasoning policy, the
 * planned window); what only guides warnings (`shown`, `lastRequest`) does not.
 */
const toolSpec = z
	.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) })
	.strict();

const storedMemory = z
	.object({
		v: z.literal(1),
		systemPrompt: z.string().optional(),
		instructions: z.string().optional(),
		selection: z
			.object({ offered: z.array(toolSpec), withheld: z.array(toolSpec) })
			.strict()
			.optional(),
		stubbed: z.array(z.string()),
		// A cut is the characters kept and, since a cut output is kept whole, its read_output reference.
		cut: z.array(
			z.tuple([
				z.string(),
				z.union([
					z
						.number()
						.int()
						.nonnegative()
						.transform(keep => ({ keep })),
					z.object({ keep: z.number().int().nonnegative(), ref: z.string().optional() }).strict(),
				]),
			]),
		),
		budgetCap: z.number().positive().optional(),
		simplerTools: z.boolean(),
		sendReasoning: z.boolean(),
		askedWindow: z.number().int().positive().optional(),
		keepReasoning: z.boolean().optional(),
	})
	.strict();

export type StoredMemory = z.infer<typeof storedMemory>;

export function snapshotMemory(memory: SessionMemory): StoredMemory {
	return {
		v: 1,
		...(memory.systemPrompt !== undefined ? { systemPrompt: memory.systemPrompt } : {}),
		...(memory.instructions !== undefined ? { instructions: memory.instructions } : {}),
		...(memory.selection
			? {
					selection: {
						offered: structuredClone(memory.selection.offered),
						withheld: structuredClone([...memory.selection.withheld.values()]),
					},
				}
			: {}),
		stubbed: [...memory.stubbed],
		cut: [...memory.cut].map(([id, cut]) => [id, { ...cut }]),
		...(memory.budgetCap !== undefined ? { budgetCap: memory.budgetCap } : {}),
		simplerTools: memory.simplerTools,
		sendReasoning: memory.sendReasoning,
		...(memory.askedWindow !== undefined ? { askedWindow: memory.askedWindow } : {}),
		...(memory.keepReasoning !== undefined ? { keepReasoning: memory.keepReasoning } : {}),
	};
}

/**
 * The memory a stored snapshot describes; a fresh one when the snapshot is missing or not one
 * this build wrote (a damaged or future row costs one re-read of the conversation, nothing else).
 */
export function restoreMemory(stored: unknown): SessionMemory {
	const memory = new SessionMemory();
	const parsed = storedMemory.safeParse(stored);
	if (!parsed.success) {
		return memory;
	}
	const s = parsed.data;
	memory.systemPrompt = s.systemPrompt;
	memory.instructions = s.instructions;
	if (s.selection) {
		memory.selection = new ToolSelection(
			s.selection.offered,
			new Map(s.selection.withheld.map(spec => [spec.name, spec])),
			() => undefined,
		);
	}
	s.stubbed.forEach(id => memory.stubbed.add(id));
	s.cut.forEach(([id, keep]) => memory.cut.set(id, keep));
	memory.budgetCap = s.budgetCap;
	memory.simplerTools = s.simplerTools;
	memory.sendReasoning = s.sendReasoning;
	memory.askedWindow = s.askedWindow;
	memory.keepReasoning = s.keepReasoning;
	return memory;
}
