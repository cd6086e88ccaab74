/**
 * Features the composition root builds on first use rather than when the host loads (the tool
 * registry with the sandbox, the MCP servers, VS Code's tools): opening the chat or running a
 * palette command pays only for what it touches. Which of them have been built is part of the
 * activation figures (`npm run bench -- activation`) and of the activation test.
 */
export class LazyFeatures {
	private readonly _built: string[] = [];

	/** `build` runs once, on the first call of the returned getter; it registers what it builds for disposal. */
	define<T>(name: string, build: () => T): () => T {
		let built: { value: T } | undefined;
		return () => {
			if (!built) {
				built = { value: build() };
				this._built.push(name);
			}
			return built.value;
		};
	}

	/** The features built so far, in the order they were first used. */
	get built(): readonly string[] {
		return this._built;
	}
}
