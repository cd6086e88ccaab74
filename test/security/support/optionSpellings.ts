// Every way a getopt-style program accepts an option's value: separate, attached, `=`, the long
// name abbreviated, bundled after other short flags. `{}` is where the value goes.
export function optionSpellings(short: string | undefined, long: string | undefined, bundleWith = ''): string[] {
	const out: string[] = [];
	if (short) {
		out.push(`-${short} {}`, `-${short}{}`);
		if (bundleWith) out.push(`-${bundleWith}${short} {}`, `-${bundleWith}${short}{}`);
	}
	if (long) {
		out.push(`--${long}={}`, `--${long} {}`);
		// GNU getopt_long takes any unambiguous prefix of a long option.
		if (long.length > 4) out.push(`--${long.slice(0, 4)}={}`, `--${long.slice(0, long.length - 1)} {}`);
	}
	return out;
}
