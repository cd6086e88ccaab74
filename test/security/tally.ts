// The security tier's scoreboard: every attack is one attempt; an attempt "gets through" when
// its canary leaks or its side effect happens. The root `after` hook prints the total line
// and one line per attack class (the classes of the security model in README).
import * as assert from 'assert';

export const tally = {
	attempts: 0,
	through: [] as string[],
	byClass: new Map<string, { attempts: number; through: number }>(),
};

/** Runs one attack; `probe` returns a description of what got through, or undefined when blocked. */
export async function attack(
	label: string,
	probe: () => Promise<string | undefined> | string | undefined,
	klass = 'other guards (escapes, SSRF, webview, approval gate)',
): Promise<void> {
	tally.attempts++;
	const counts = tally.byClass.get(klass) ?? { attempts: 0, through: 0 };
	tally.byClass.set(klass, counts);
	counts.attempts++;
	let escaped: string | undefined;
	try {
		escaped = await probe();
	} catch (error) {
		// A probe that crashes proves nothing either way: count it as through, so it gets looked at.
		escaped = `probe crashed: ${(error as Error).message}`;
	}
	if (escaped) {
		counts.through++;
		tally.through.push(`${label}: ${escaped}`);
	}
	assert.strictEqual(escaped, undefined, `${label} got through: ${escaped}`);
}

after(function () {
	const line = `${tally.attempts} attempts, ${tally.through.length} got through`;
	console.log(`\n  SECURITY: ${line}`);
	for (const [klass, counts] of [...tally.byClass].sort(([a], [b]) =>
		a.localeCompare(b, undefined, { numeric: true }),
	)) {
		console.log(`    ${klass}: ${counts.attempts} attempts, ${counts.through} got through`);
	}
	tally.through.forEach(t => console.log(`    - ${t}`));
});
