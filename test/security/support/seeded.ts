// A seeded generator for attack variants: the same seed gives the same attempts on every run
// (a failure can be replayed), a different KEEL_SEED explores others.
export function seeded(seed = Number(process.env.KEEL_SEED ?? 20_260_517)): {
	int(n: number): number;
	pick<T>(items: readonly T[]): T;
} {
	let state = seed >>> 0 || 1;
	const next = () => {
		// xorshift32: small, fast, good enough to vary attack shapes.
		state ^= state << 13;
		state >>>= 0;
		state ^= state >>> 17;
		state ^= state << 5;
		state >>>= 0;
		return state;
	};
	return {
		int: n => next() % n,
		pick: items => items[next() % items.length],
	};
}
