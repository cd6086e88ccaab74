// Steps sent over HTTP come from another process; a typo there should fail loudly at
// script time with the step's index, not as a confusing response three turns later.

const FAULT_NUMBERS = ['dropAfter', 'stallAfter', 'errorAfter', 'delayMs', 'headerDelayMs', 'prefillMs'] as const;

export function validateSteps(list: unknown[]): void {
	list.forEach((s, i) => {
		const where = `model double: step ${i}`;
		if (!s || typeof s !== 'object' || Array.isArray(s))
			throw new Error(`${where} must be an object, got ${JSON.stringify(s)}`);
		const step = s as Record<string, unknown>;
		for (const f of FAULT_NUMBERS) {
			if (step[f] !== undefined && (typeof step[f] !== 'number' || (step[f] as number) < 0)) {
				throw new Error(`${where}: ${f} must be a non-negative number`);
			}
		}
		switch (step.kind) {
			case 'reply':
				if (step.text !== undefined && typeof step.text !== 'string')
					throw new Error(`${where}: text must be a string`);
				if (step.toolCalls !== undefined) {
					if (!Array.isArray(step.toolCalls)) throw new Error(`${where}: toolCalls must be an array`);
					step.toolCalls.forEach((c: any, j: number) => {
						if (!c || typeof c.name !== 'string' || typeof c.arguments !== 'string') {
							throw new Error(
								`${where}: toolCalls[${j}] needs a string name and string arguments (use the toolCalls() builder)`,
							);
						}
					});
				}
				return;
			case 'httpError':
			case 'wireError':
				if (typeof step.status !== 'number' || step.status < 100 || step.status > 599)
					throw new Error(`${where}: status must be an HTTP status`);
				if (step.kind === 'wireError' && typeof step.message !== 'string')
					throw new Error(`${where}: message must be a string`);
				return;
			default:
				throw new Error(
					`${where}: unknown kind ${JSON.stringify(step.kind)} (expected reply, httpError or wireError)`,
				);
		}
	});
}
