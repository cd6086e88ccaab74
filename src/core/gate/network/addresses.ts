/**
 * Where an address Keel is about to contact came from. One the user typed, or set in their own
 * settings, is theirs. One written by the workspace (a prompt file, keel.model.baseUrl in the
 * workspace's settings) is contacted only after the user has seen it and said yes: otherwise a
 * cloned repository would choose the server that receives what the user types.
 */
export type AddressOrigin = { from: 'user' } | { from: 'workspace'; where: string };

export interface AddressConsent {
	/** True when the user allows Keel to contact `url` (the host asks once per address and remembers). */
	allow(url: URL, where: string): Promise<boolean>;
}

export class AddressRefused extends Error {}

export async function admitAddress(raw: string, origin: AddressOrigin, consent?: AddressConsent): Promise<URL> {
	let url: URL;
	try {
		url = new URL(raw.trim());
	} catch {
		throw new AddressRefused(`"${raw}" is not a valid address.`);
	}
	if (origin.from === 'user') {
		return url;
	}
	if (consent && (await consent.allow(url, origin.where).catch(() => false))) {
		return url;
	}
	throw new AddressRefused(
		`${url.origin} comes from ${origin.where}, not from you, so Keel did not contact it. ${
			consent
				? 'Allow it when Keel asks, or set the address in your user settings.'
				: 'Type the address yourself to use it.'
		}`,
	);
}

interface Inspected {
	globalValue?: unknown;
	workspaceValue?: unknown;
	workspaceFolderValue?: unknown;
}

const same = (a: unknown, b: unknown) =>
	typeof a === 'string' && typeof b === 'string'
		? a.trim().replace(/\/+$/, '') === b.trim().replace(/\/+$/, '')
		: a === b;

/**
 * Where a setting's effective value comes from, given VS Code's `inspect` of it (pass only the
 * user's value when the workspace's does not count, e.g. untrusted): the workspace's when it set
 * a value of its own that the user did not set too.
 */
export function settingOrigin(key: string, inspected: Inspected | undefined): AddressOrigin {
	const scopes: Array<[unknown, string]> = [
		[inspected?.workspaceFolderValue, 'the workspace folder settings'],
		[inspected?.workspaceValue, 'the workspace settings'],
	];
	const hit = scopes.find(([value]) => value !== undefined);
	if (!hit || same(hit[0], inspected?.globalValue)) {
		return { from: 'user' };
	}
	return { from: 'workspace', where: `${key} in ${hit[1]}` };
}
