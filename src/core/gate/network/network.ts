import { AddressRefused } from './addresses';

/**
 * The model clients' way onto the network: the one reference to the platform's fetch. Model
 * adapters take a fetch; the host hands them `endpointFetch` for the endpoint the gate admitted.
 */
export const networkFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

/**
 * A fetch that dials only `endpoint`'s origin: what the gate admitted is what is contacted,
 * whatever URL a client library builds (a path of its own, an absolute URL from a response).
 */
export function endpointFetch(endpoint: URL, inner: typeof fetch = networkFetch): typeof fetch {
	return (input, init) => {
		const target = new URL(input instanceof Request ? input.url : String(input));
		if (target.origin !== endpoint.origin) {
			return Promise.reject(
				new AddressRefused(
					`Keel was about to contact ${target.origin}, not the model endpoint ${endpoint.origin}; nothing was sent.`,
				),
			);
		}
		return inner(input, init);
	};
}
