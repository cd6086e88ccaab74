/**
 * What a test does when a real part it needs (the Docker engine, Chromium, Keel's VSIX) is
 * missing. Under CI (`CI=true`) and under scripts/test.sh (`KEEL_TEST_STRICT=1`) that is a
 * failure that names the part: a tier that cannot run must not pass as "skipped". A developer
 * running one file without the part gets a skip that says which part and why.
 */
export function strictTiers(): boolean {
	return process.env.CI === 'true' || process.env.KEEL_TEST_STRICT === '1';
}

/** Fails (strict) or skips (by hand) the current test or suite hook; returns only when `reason` is undefined. */
export function requirePart(context: Mocha.Context, part: string, reason: string | undefined): void {
	if (reason === undefined) {
		return;
	}
	const message = `${part} not available: ${reason}`;
	if (strictTiers()) {
		throw new Error(`${message}. CI runs every tier; scripts/test.sh sets the part up (scripts/lib/setup.sh).`);
	}
	console.log(`    SKIPPED: ${message}`);
	context.skip();
}
