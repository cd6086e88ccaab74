/** NUL-separated output (`git … -z`) as a list, without the empty tail. */
export function splitNul(output: string): string[] {
	return output.split('\0').filter(Boolean);
}
